import { ApiSchema, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { CreateStreamDto } from './create-stream.dto';
import { ScalingConfigDto } from './scaling-config.dto';

/** A full replacement of a stream's configuration: what is omitted is reset. */
@ApiSchema({ name: 'UpdateStreamRequest' })
export class UpdateStreamDto extends OmitType(CreateStreamDto, [
  'streamName',
  'scalingPolicy',
] as const) {
  /** Required on update. */
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ScalingConfigDto)
  scalingPolicy: ScalingConfigDto;
}

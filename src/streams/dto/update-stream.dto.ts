import { ApiSchema, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { FieldViolation } from '../../common/errors/domain-error';
import { HasMeaningRules } from '../../common/http/validation.pipe';
import { readStreamConfiguration } from '../stream-configuration';
import { CreateStreamDto } from './create-stream.dto';
import { ScalingConfigDto } from './scaling-config.dto';

/** A full replacement of a stream's configuration: what is omitted is reset. */
@ApiSchema({ name: 'UpdateStreamRequest' })
export class UpdateStreamDto
  extends OmitType(CreateStreamDto, ['streamName', 'scalingPolicy', 'meaningViolations'] as const)
  implements HasMeaningRules
{
  /** Required on update. */
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ScalingConfigDto)
  scalingPolicy: ScalingConfigDto;

  meaningViolations(): FieldViolation[] {
    return readStreamConfiguration(this).violations;
  }
}

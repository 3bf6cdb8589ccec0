import { ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsInt64 } from '../../common/http/validators';

@ApiSchema({ name: 'TimeBasedRetention' })
export class TimeBasedRetentionDto {
  @IsOptional()
  @IsInt64()
  days?: number;

  @IsOptional()
  @IsInt64()
  hours?: number;

  @IsOptional()
  @IsInt64()
  minutes?: number;
}

import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { HealthStatus } from '../health-status';

/** The body of `/livez`, with 200 or 503. */
@ApiSchema({ name: 'LivenessAnswer' })
export class LivenessAnswerDto {
  liveness: boolean;
}

/** The body of `/readyz`, with 200 or 503. */
@ApiSchema({ name: 'ReadinessAnswer' })
export class ReadinessAnswerDto {
  readiness: boolean;

  @ApiProperty({ enum: HealthStatus, enumName: 'HealthStatus' })
  status: HealthStatus;
}

import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { HealthStatus } from '../health-status';

/** The contract's HealthDetails: a map of strings. */
export const HEALTH_DETAILS_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'What a health contributor reports about itself, as strings.',
} as const;

export const HEALTH_DETAILS_REF = { $ref: getSchemaPath('HealthDetails') };

/** The health of the service or of one of its contributors, with the contributors below it. */
@ApiSchema({ name: 'HealthResult' })
export class HealthResultDto {
  /** The contributor's name (`tributary` for the root). */
  name?: string;

  /** The lowest of the contributor's own status and its children's. */
  @ApiProperty({ enum: HealthStatus, enumName: 'HealthStatus', required: false })
  status?: HealthStatus;

  /** Whether it can serve: status UP. */
  readiness?: boolean;

  /** Whether the process works (a database outage leaves it alive). */
  liveness?: boolean;

  /**
   * What the contributor reports about itself. With authentication on, only for callers allowed
   * `/v1/health/details` (`READ_UPDATE` on `prn::/`); left out for the others.
   */
  // The plugin describes the map inline; the contract names it HealthDetails.
  @ApiProperty({ required: false, allOf: [HEALTH_DETAILS_REF] })
  details?: Record<string, string>;

  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { $ref: getSchemaPath('HealthResult') },
  })
  children?: Record<string, HealthResultDto>;
}

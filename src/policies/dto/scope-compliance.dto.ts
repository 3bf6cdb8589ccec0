import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ProblemPolicyViolationDto } from '../../http/problem-document.dto';
import type { ScopeLimit } from '../compliance';

@ApiSchema({ name: 'NonCompliantStream' })
export class NonCompliantStreamDto {
  /** @example "orders" */
  streamName: string;
  /** Every rule the stream breaks as it stands. */
  @ApiProperty({ type: [ProblemPolicyViolationDto] })
  violations: ProblemPolicyViolationDto[];
}

/** How a scope stands against its policy now (extension). */
@ApiSchema({ name: 'ScopeCompliance' })
export class ScopeComplianceDto {
  /** The scope's user streams now, sealed ones included. @example 3 */
  @ApiProperty({ type: 'integer', format: 'int64' })
  streams: number;
  /** The active segments of its user streams now. @example 12 */
  @ApiProperty({ type: 'integer', format: 'int64' })
  activeSegments: number;
  /** The scope-wide limits exceeded now. @example ["maxStreams"] */
  @ApiProperty({ type: 'string', enum: ['maxStreams', 'maxActiveSegments'], isArray: true })
  limitsExceeded: ScopeLimit[];
  /** How many user streams break a stream rule or exceed `maxSegmentsPerStream`. @example 1 */
  @ApiProperty({ type: 'integer', format: 'int64' })
  nonCompliantCount: number;
  /** The first 100 of them by name, with what each breaks. */
  @ApiProperty({ type: [NonCompliantStreamDto] })
  nonCompliant: NonCompliantStreamDto[];
}

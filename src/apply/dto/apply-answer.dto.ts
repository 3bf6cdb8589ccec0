import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CHANGE_ACTIONS, CHANGE_KINDS } from '../planned-change';
import { ProblemConflictDto, ProblemPolicyViolationDto } from '../../http/problem-document.dto';

@ApiSchema({ name: 'ApplyFieldDiff' })
export class ApplyFieldDiffDto {
  /**
   * The field, by its path in the stream's properties or the scope's policy.
   * @example "scalingPolicy.minSegments"
   */
  path: string;
  /** The value now; absent when the field is absent. @example 1 */
  @ApiProperty({ required: false })
  before?: unknown;
  /** The value the document asks for; absent when the field goes. @example 4 */
  @ApiProperty({ required: false })
  after?: unknown;
}

@ApiSchema({ name: 'ApplyChange' })
export class ApplyChangeDto {
  @ApiProperty({ enum: CHANGE_ACTIONS })
  action: string;
  /** `scopePolicy`: the policy of the scope `resource` names, right after the scope's change. */
  @ApiProperty({ enum: CHANGE_KINDS })
  kind: string;
  /** The resource, named as in ACLs. @example "prn::/scope:sales/stream:orders" */
  resource: string;
  /** For an update: each field it changes. */
  diff?: ApplyFieldDiffDto[];
}

@ApiSchema({ name: 'ApplySummary' })
export class ApplySummaryDto {
  @ApiProperty({ type: 'integer' })
  create: number;
  @ApiProperty({ type: 'integer' })
  update: number;
  @ApiProperty({ type: 'integer' })
  delete: number;
  @ApiProperty({ type: 'integer' })
  unchanged: number;
}

/** Extension: the plan of `POST /v1/apply`, and whether it ran. */
@ApiSchema({ name: 'ApplyResult' })
export class ApplyAnswerDto {
  dryRun: boolean;
  /** Whether the changes were made (all of them, in one transaction). */
  applied: boolean;
  /** One per listed or pruned resource, scopes included. */
  changes: ApplyChangeDto[];
  summary: ApplySummaryDto;
  /** Resources that stop the document (never in a 200; see the 409). */
  conflicts?: ProblemConflictDto[];
  /**
   * A dry run's: every rule of a scope's policy the plan would break, each naming its resource
   * (a real apply refuses them with 422 `POLICY_VIOLATION`). Absent when none.
   */
  violations?: ProblemPolicyViolationDto[];
  /**
   * A strong entity tag over every version the plan read: send it back as `If-Match`.
   * @example "\"n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sEbDWbB8\""
   */
  planVersion: string;
}

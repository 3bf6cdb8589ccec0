import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ProblemFieldError' })
export class ProblemFieldErrorDto {
  /** The invalid field, by its path in the request. @example "scalingPolicy.minSegments" */
  field: string;
  /** @example "minSegments must not be less than 1" */
  message: string;
}

@ApiSchema({ name: 'ProblemConflict' })
export class ProblemConflictDto {
  /** The resource, named as in ACLs. @example "prn::/scope:sales/stream:orders" */
  resource: string;
  /** @example "Stream sales/orders is sealed" */
  message: string;
}

@ApiSchema({ name: 'ProblemMissingPermission' })
export class ProblemMissingPermissionDto {
  /** The permission the request needed. @example "READ_UPDATE" */
  permission: string;
  /** The resource it is needed on, named as in ACLs. @example "prn::/scope:sales" */
  resource: string;
}

@ApiSchema({ name: 'ProblemPolicyViolation' })
export class ProblemPolicyViolationDto {
  /** The rule, by its field in the scope's policy. @example "maxStreams" */
  rule: string;
  /**
   * The policy's value: a number, a list, one pattern of `requiredTags`, `true`.
   * @example 5
   */
  @ApiProperty({
    oneOf: [
      { type: 'integer' },
      { type: 'boolean' },
      { type: 'string' },
      { type: 'array', items: { type: 'string' } },
    ],
  })
  limit: unknown;
  /** What the change would make it, where one value says it. @example 6 */
  @ApiProperty({
    required: false,
    oneOf: [{ type: 'number' }, { type: 'string' }, { type: 'array', items: { type: 'string' } }],
  })
  actual?: unknown;
  /** @example "The change would make 6 user streams in the scope, over the limit of 5." */
  detail: string;
  /** The resource it concerns, when a request changes several (an apply). */
  resource?: string;
}

/**
 * An RFC 9457 problem document, as the global exception filter writes it
 * (`application/problem+json`).
 */
@ApiSchema({ name: 'Problem' })
export class ProblemDocumentDto {
  /** A URN naming the kind of problem. @example "urn:tributary:problem:scope-not-found" */
  type: string;
  /** The HTTP status in words. @example "Not found" */
  title: string;
  /** The HTTP status code. @example 404 */
  @ApiProperty({ type: 'integer', format: 'int32' })
  status: number;
  /** What went wrong, for a person. @example "Scope sales does not exist" */
  detail: string;
  /** A stable, machine-readable code. @example "SCOPE_NOT_FOUND" */
  code: string;
  /** The path of the request. @example "/v1/scopes/sales" */
  instance: string;
  /** The request's `X-Request-Id`. @example "0b6f3c1e-2f4a-4d0e-9a51-4f3e2b1c0d9a" */
  requestId: string;
  /** Each invalid field (400 only); at most 100 (see `more`). */
  errors?: ProblemFieldErrorDto[];
  /** Each resource that stopped the whole request (409 of `POST /v1/apply`); at most 100. */
  conflicts?: ProblemConflictDto[];
  /**
   * Each permission the caller lacks, on its resource (403 only): what
   * `GET /v1/auth/explain` explains. At most 100.
   */
  missing?: ProblemMissingPermissionDto[];
  /** Each rule of the scope's policy the change would break (422 `POLICY_VIOLATION`); at most 100. */
  violations?: ProblemPolicyViolationDto[];
  /**
   * How many entries of `errors`, `conflicts`, `missing` and `violations` are left out: together they list at
   * most 100. Absent when none is.
   * @example 459900
   */
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  more?: number;
}

import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Who the caller is, as the access check sees it. */
@ApiSchema({ name: 'Identity' })
export class IdentityDto {
  /** The account, the token's principal claim, or `anonymous` without authentication. */
  principal: string;

  @ApiProperty({ enum: ['basic', 'bearer', 'anonymous'] })
  method: 'basic' | 'bearer' | 'anonymous';

  /** A token's groups, in the order of its groups claim. */
  groups: string[];

  /** The entries asked, in order; the first matching a resource decides (`prn::/,READ`). */
  acl: string[];

  /** When the token expires, in milliseconds since 1970. */
  @ApiProperty({ type: 'integer', format: 'int64', required: false })
  expiresAt?: number;
}

/** The caller's access check on one resource, and the entry that decided it. */
@ApiSchema({ name: 'AccessExplanation' })
export class ExplanationDto {
  allowed: boolean;

  /** The first entry matching the resource, absent when none does. */
  matchedEntry?: string;

  /** Where that entry comes from: `account`, `claim` or `group:<name>`. */
  source?: string;
}

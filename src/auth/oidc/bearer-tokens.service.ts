import { Injectable, Logger } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import { AppConfig } from '../../config/app-config';
import { DomainError } from '../../common/domain-error';
import { jose } from '../../common/required-on-first-use';
import { InvalidTokenError, IssuerUnavailableError } from '../auth.errors';
import type { GroupAcls } from '../group-acls-file';
import { Principal } from '../principal';
import { OidcIssuer } from './oidc-issuer.service';
import { ClaimNames, identityOf, UnusableClaimsError } from './token-claims';
import { VerifiedTokens } from './verified-tokens';

/** How many verified tokens are remembered, so that a client's next requests skip the check. */
const VERIFIED_TOKENS = 10_000;

/** Signatures accepted: asymmetric only, never `none` or HMAC (docs/extensions.md section 9). */
const TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

const CLAIM_REASONS: Record<string, string> = {
  nbf: 'not yet valid',
  iss: 'issued by another issuer',
  aud: 'meant for another audience',
};

/** jose's words for a claim that fails (`missing`, `invalid`, `check_failed`). */
const CLAIM_FAILURES: Record<string, string> = {
  missing: 'is missing',
  invalid: 'is invalid',
};

/** What a failed verification tells the caller: 401 with the reason, or 503. */
function refusal(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  const { errors } = jose();
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new InvalidTokenError(
      CLAIM_REASONS[error.claim] ??
        `the ${error.claim} claim ${CLAIM_FAILURES[error.reason] ?? 'fails its check'}`,
    );
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return new InvalidTokenError('its algorithm is not accepted');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new InvalidTokenError('its signature does not verify');
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new InvalidTokenError('signed with an unknown key');
  }
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return new InvalidTokenError('its key is ambiguous');
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  ) {
    return new InvalidTokenError('malformed');
  }
  if (error instanceof errors.JWKSTimeout) {
    return new IssuerUnavailableError('the provider did not send its keys in time');
  }
  // The keys could not be fetched: the network failed, or the provider answered badly.
  if (error instanceof errors.JOSEError || (error as Error)?.message === 'fetch failed') {
    return new IssuerUnavailableError('the provider did not send its keys');
  }
  return undefined;
}

/**
 * Bearer tokens (docs/extensions.md section 9): verified with jose against the provider's keys
 * (no network per request once they are known), then mapped to a principal whose ACL is the
 * token's ACL claim and its groups' ACLs. A token verified once is not verified again while it
 * is valid and the keys and group ACLs are unchanged.
 */
@Injectable()
export class BearerTokens {
  private readonly logger = new Logger(BearerTokens.name);
  private readonly claims: ClaimNames;
  private readonly verified = new VerifiedTokens(VERIFIED_TOKENS);

  constructor(
    private readonly config: AppConfig,
    private readonly issuer: OidcIssuer,
  ) {
    this.claims = {
      principal: config.AUTH_OIDC_PRINCIPAL_CLAIM,
      groups: config.AUTH_OIDC_GROUPS_CLAIM,
      acl: config.AUTH_OIDC_ACL_CLAIM,
    };
  }

  get enabled(): boolean {
    return this.issuer.enabled;
  }

  /** The principal of a valid token; 401 with the reason otherwise, 503 while keys are unknown. */
  async principalOf(token: string, groupAcls: GroupAcls): Promise<Principal> {
    const keys = this.issuer.keysVersion;
    const known = this.verified.get(token, keys, groupAcls);
    if (known) return known;
    const { principal, payload } = await this.verify(token, groupAcls);
    const tolerance = this.config.AUTH_OIDC_CLOCK_TOLERANCE_S;
    this.verified.set(token, {
      principal,
      from: ((payload.nbf ?? 0) - tolerance) * 1000,
      until: (payload.exp! + tolerance) * 1000,
      keys,
      groupAcls,
    });
    return principal;
  }

  private async verify(
    token: string,
    groupAcls: GroupAcls,
  ): Promise<{ principal: Principal; payload: JWTPayload }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jose().jwtVerify(token, this.issuer.keys, {
        issuer: this.issuer.issuer,
        audience: this.config.AUTH_OIDC_AUDIENCE,
        algorithms: TOKEN_ALGORITHMS,
        clockTolerance: this.config.AUTH_OIDC_CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      const answer = refusal(error);
      if (answer) throw answer;
      // Whatever else a token can make a verifier throw is still the token's fault, not a 500.
      this.logger.warn(`a bearer token could not be verified: ${(error as Error)?.message}`);
      throw new InvalidTokenError('it cannot be verified');
    }
    try {
      const identity = identityOf(payload, this.claims, groupAcls);
      const principal = new Principal(
        identity.name,
        'bearer',
        identity.acl,
        identity.groups,
        payload.exp! * 1000,
      );
      return { principal, payload };
    } catch (error) {
      if (error instanceof UnusableClaimsError) throw new InvalidTokenError(error.message);
      throw error;
    }
  }
}

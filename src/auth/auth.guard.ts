import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Actor, actorOf } from '../audit/actor';
import { AuditEntry, AuditService } from '../audit/audit.service';
import type { RequestWithId } from '../common/http/request-id.middleware';
import { operationOf } from '../common/operations';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { Permission } from './acl';
import { ACCESS_RULE, AccessRule, PathParams } from './access.decorator';
import { PermissionDeniedError, TooManyAuthFailuresError } from './auth.errors';
import { AuthService, Principal } from './auth.service';
import { ROOT_RESOURCE } from './resources';

export interface AuthenticatedRequest extends RequestWithId {
  access?: Principal;
}

/** A route that declares nothing needs the most: a forgotten rule must not open a door. */
const UNDECLARED: AccessRule = {
  permission: Permission.READ_UPDATE,
  resource: () => ROOT_RESOURCE,
};

/**
 * With AUTH_ENABLED, every route needs credentials (401) and the permission its
 * {@link Access} rule names (403), before any other check runs. Refusals are counted in the
 * metrics and recorded in the audit trail.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger(AuthGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.AUTH_ENABLED) return true;
    const rule =
      this.reflector.getAllAndOverride<AccessRule>(ACCESS_RULE, [
        context.getHandler(),
        context.getClass(),
      ]) ?? UNDECLARED;
    if (rule.health && this.config.AUTH_HEALTH_OPEN) return true;

    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const attempt: AuditEntry = {
      operation: operationOf(context),
      resource: rule.resource(req.params as PathParams),
    };
    const principal = await this.auth
      .authenticate(req.headers.authorization, req.ip ?? '')
      .catch(async (error: unknown) => {
        if (error instanceof TooManyAuthFailuresError) {
          this.metrics.rateLimited();
        } else {
          const reason = req.headers.authorization ? 'invalid_credentials' : 'missing_credentials';
          this.metrics.authFailed(reason);
          await this.recordDenied(actorOf(req), attempt);
        }
        throw error;
      });
    req.principal = principal.name;
    req.access = principal;
    if (!principal.allows(attempt.resource, rule.permission)) {
      this.metrics.authFailed('forbidden');
      await this.recordDenied(actorOf(req), attempt);
      throw new PermissionDeniedError(rule.permission, attempt.resource);
    }
    return true;
  }

  /** A refusal is recorded; if the database cannot take it, the refusal still stands. */
  private async recordDenied(actor: Actor, entry: AuditEntry): Promise<void> {
    await this.audit.denied(actor, entry).catch((error: unknown) => {
      this.logger.warn(
        `could not record a denied request: ${error instanceof Error ? error.message : ''}`,
      );
    });
  }
}

import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { actorOf } from '../audit/actor';
import { AuditEntry, AuditService } from '../audit/audit.service';
import { AppConfig } from '../config/app-config';
import { noteOperation, RequestWithId } from '../http/request-context';
import { MetricsService } from '../metrics/metrics.service';
import { Permission } from './acl';
import { ACCESS_RULE, AccessRule, PathParams, QueryParams } from './access.decorator';
import {
  InvalidTokenError,
  IssuerUnavailableError,
  PermissionDeniedError,
  TooManyAuthFailuresError,
} from './auth.errors';
import { AuthService, Principal } from './auth.service';
import { UNAUTHENTICATED_PRINCIPAL } from './principal';
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
 * The guard of every route. It notes the route's operation on the request (the log line,
 * metrics and audit name it); then, with AUTH_ENABLED, it asks for credentials (401) and the
 * permission the route's {@link Access} rule names, with what its body names (403), before any
 * other check runs, and tells a list route which items the caller may see. Refusals are counted
 * in the metrics and recorded in the audit trail (a refused bearer token with its reason; the
 * 401s of a client address counted per minute, docs/extensions.md section 12). Every
 * permission, here and in the apply, is the principal's one access check (docs/extensions.md
 * section 9).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly audit: AuditService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const operation = noteOperation(context);
    return this.config.AUTH_ENABLED ? this.authorize(context, operation) : true;
  }

  private async authorize(context: ExecutionContext, operation: string): Promise<boolean> {
    const rule =
      this.reflector.getAllAndOverride<AccessRule>(ACCESS_RULE, [
        context.getHandler(),
        context.getClass(),
      ]) ?? UNDECLARED;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Open health routes need no credentials. Credentials sent are checked all the same (a
    // failed login like any other): the health details are shown to those who may read them.
    const open = rule.health === true && this.config.AUTH_HEALTH_OPEN;
    if (open && !req.headers.authorization) {
      req.access = UNAUTHENTICATED_PRINCIPAL;
      return true;
    }

    const params = req.params as PathParams;
    const query = req.query as QueryParams;
    const attempt: AuditEntry = { operation, resource: rule.resource(params, query) };
    const principal = await this.auth
      .authenticate(req.headers.authorization, req.ip ?? '')
      .catch(async (error: unknown) => {
        if (error instanceof TooManyAuthFailuresError) {
          this.metrics.rateLimited();
        } else if (error instanceof InvalidTokenError) {
          this.metrics.authFailed('invalid_token');
          await this.recorded(
            this.audit.unauthenticated(actorOf(req), {
              ...attempt,
              after: { reason: error.reason },
            }),
          );
        } else if (!(error instanceof IssuerUnavailableError)) {
          const reason = req.headers.authorization ? 'invalid_credentials' : 'missing_credentials';
          this.metrics.authFailed(reason);
          await this.recorded(this.audit.unauthenticated(actorOf(req), attempt));
        }
        throw error;
      });
    req.principal = principal.name;
    req.access = principal;
    const missing = open
      ? []
      : principal.lacks([
          { permission: rule.permission, resource: attempt.resource },
          ...(rule.named?.(req.body, params) ?? []),
        ]);
    if (missing.length > 0) {
      this.metrics.authFailed('forbidden');
      await this.recorded(this.audit.denied(actorOf(req), attempt));
      throw new PermissionDeniedError(missing);
    }
    const list = rule.list;
    if (list) {
      req.visible = (item) =>
        principal.allows(list.resource(item as Record<string, string>, params), Permission.READ);
    }
    return true;
  }

  /** A refusal is recorded; if the database cannot take it, the refusal still stands. */
  private async recorded(record: Promise<void>): Promise<void> {
    await record.catch((error: unknown) => {
      this.logger.warn(
        `could not record a denied request: ${error instanceof Error ? error.message : ''}`,
      );
    });
  }
}

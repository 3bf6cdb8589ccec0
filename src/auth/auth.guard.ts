import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { Permission } from './acl';
import { ACCESS_RULE, AccessRule, PathParams } from './access.decorator';
import { MetricsService } from '../metrics/metrics.service';
import { PermissionDeniedError, TooManyAuthFailuresError } from './auth.errors';
import { AuthService, Principal } from './auth.service';
import { ROOT_RESOURCE } from './resources';

export interface AuthenticatedRequest extends Request {
  /** The account's name, for logs and the audit trail. */
  principal?: string;
  access?: Principal;
}

/** A route that declares nothing needs the most: a forgotten rule must not open a door. */
const UNDECLARED: AccessRule = {
  permission: Permission.READ_UPDATE,
  resource: () => ROOT_RESOURCE,
};

/**
 * With AUTH_ENABLED, every route needs credentials (401) and the permission its
 * {@link Access} rule names (403), before any other check runs.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
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
    const principal = await this.auth
      .authenticate(req.headers.authorization, req.ip ?? '')
      .catch((error: unknown) => {
        if (error instanceof TooManyAuthFailuresError) this.metrics.rateLimited();
        else
          this.metrics.authFailed(
            req.headers.authorization ? 'invalid_credentials' : 'missing_credentials',
          );
        throw error;
      });
    req.principal = principal.name;
    req.access = principal;
    const resource = rule.resource(req.params as PathParams);
    if (!principal.allows(resource, rule.permission)) {
      this.metrics.authFailed('forbidden');
      throw new PermissionDeniedError(rule.permission, resource);
    }
    return true;
  }
}

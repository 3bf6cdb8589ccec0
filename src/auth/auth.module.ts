import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AccessFiles } from './access-files.service';
import { AccessGuard } from './access.guard';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { BearerTokens } from './oidc/bearer-tokens.service';
import { OidcIssuer } from './oidc/oidc-issuer.service';

/**
 * Accounts, bearer tokens of an OpenID Connect provider, and the guard of every route that
 * checks them; the request pipeline installs the guard, the health tree asks the provider.
 */
@Module({
  imports: [AuditModule],
  controllers: [AuthController],
  providers: [AuthService, AccessGuard, AccessFiles, BearerTokens, OidcIssuer],
  exports: [AccessGuard, OidcIssuer, AuthService, AccessFiles],
})
export class AuthModule {}

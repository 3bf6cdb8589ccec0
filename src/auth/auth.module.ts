import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';

/** Accounts and the guard that checks them; the request pipeline installs the guard. */
@Module({
  imports: [AuditModule],
  providers: [AuthService, AuthGuard],
  exports: [AuthGuard],
})
export class AuthModule {}

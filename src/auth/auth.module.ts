import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { ReadableListInterceptor } from './readable-list.interceptor';

@Global()
@Module({
  providers: [
    AuthService,
    AuthGuard,
    { provide: APP_INTERCEPTOR, useClass: ReadableListInterceptor },
  ],
  exports: [AuthService, AuthGuard],
})
export class AuthModule {}

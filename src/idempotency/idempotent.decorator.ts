import { ApiHeader } from '@nestjs/swagger';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * A POST that honours `Idempotency-Key` (docs/extensions.md section 3). Its interceptor is
 * always the route's outermost, wherever this decorator is listed, so the answer it keeps is
 * the one sent: the body, status, `ETag` and `Location` the inner interceptors made.
 */
export const Idempotent = (): MethodDecorator => (target, key, descriptor) => {
  const handler = descriptor.value as object;
  const inner = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[]) ?? [];
  Reflect.defineMetadata(INTERCEPTORS_METADATA, [IdempotencyInterceptor, ...inner], handler);
  ApiHeader({ name: IDEMPOTENCY_KEY_HEADER, required: false })(target, key, descriptor);
};

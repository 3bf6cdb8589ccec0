import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';

/**
 * The contract answers some health routes with a bare JSON string or boolean (`"UP"`, `true`).
 * Express would send those as text; this sends them as JSON.
 */
@Injectable()
export class JsonScalarInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (typeof body === 'object' && body !== null) return body;
        context.switchToHttp().getResponse<Response>().type('application/json');
        return JSON.stringify(body);
      }),
    );
  }
}

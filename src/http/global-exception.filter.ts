import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clipText } from '../common/bounded-text';
import type { RequestWithId } from './request-context';
import { MAX_DETAIL_BYTES, toProblem } from './problem';

export const PROBLEM_JSON = 'application/problem+json';
/** What a 401 asks for (the reference sends no challenge; browsers and clients need one). */
export const BASIC_CHALLENGE = 'Basic realm="tributary", charset="UTF-8"';
/** The contract declares these errors without a body, and generated clients expect none. */
const BODILESS_UNLESS_ASKED = new Set([404, 409, 412, 500]);
/**
 * A scope policy's refusal comes from the contract's own routes (a create, a PUT), whose clients
 * expect no error body: none either, unless asked (docs/extensions.md section 10).
 */
const BODILESS_CODES_UNLESS_ASKED = new Set(['POLICY_VIOLATION']);

/** The problem document's `type`: a URN naming the code (`urn:tributary:problem:scope-not-found`). */
export const problemType = (code: string): string =>
  `urn:tributary:problem:${code.toLowerCase().replace(/_/g, '-')}`;

/** The problem document's `title`: the status in words (`Not found`). */
export const problemTitle = (status: number): string | undefined =>
  HttpStatus[status]
    ?.toLowerCase()
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** Only an explicit `application/problem+json` counts; a wildcard keeps the empty body. */
const asksForProblem = (req: Request): boolean =>
  (req.headers.accept ?? '').toLowerCase().includes(PROBLEM_JSON);

/**
 * The one place where errors become HTTP responses: domain, validation, body parser and
 * database errors. Internals never reach the client; bugs are logged with their stack. Every
 * problem document is bounded (`toProblem`): under 64 KiB, whatever the request.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(GlobalExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & RequestWithId>();
    const res = http.getResponse<Response>();
    const problem = toProblem(exception);

    if (problem.unexpected) {
      this.logger.error(
        `${req.method} ${req.originalUrl} failed (request ${req.id})`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    } else if (problem.status === 503) {
      this.logger.warn(`${req.method} ${req.originalUrl}: ${problem.detail} (request ${req.id})`);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(problem.status);
    if (problem.retryAfter !== undefined) res.setHeader('Retry-After', String(problem.retryAfter));
    if (problem.status === 401) {
      res.setHeader('WWW-Authenticate', problem.challenges ?? BASIC_CHALLENGE);
    }
    const bodiless =
      BODILESS_UNLESS_ASKED.has(problem.status) || BODILESS_CODES_UNLESS_ASKED.has(problem.code);
    if (bodiless && !asksForProblem(req)) {
      res.end();
      return;
    }
    res.type(PROBLEM_JSON).send(
      JSON.stringify({
        type: problemType(problem.code),
        title: problemTitle(problem.status),
        status: problem.status,
        detail: problem.detail,
        code: problem.code,
        instance: clipText(req.originalUrl, MAX_DETAIL_BYTES),
        requestId: problem.requestId ?? req.id,
        errors: problem.violations,
        conflicts: problem.conflicts,
        missing: problem.missing,
        violations: problem.ruleViolations,
        more: problem.more,
      }),
    );
  }
}

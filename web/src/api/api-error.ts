import { describeProblem, fieldErrors, ProblemFacts, UNREACHABLE } from './problem-words';

/** A request the API refused, or that never got an answer (status 0), in words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemFacts | undefined,
    /** Seconds the service asked to wait before trying again (503, 429). */
    readonly retryAfter?: number,
  ) {
    super(describeProblem(status, problem));
    this.name = 'ApiError';
  }

  get code(): string | undefined {
    return this.problem?.code;
  }

  /** Each invalid field's message by its path (a 400's problem document). */
  get fields(): Record<string, string> {
    return fieldErrors(this.problem);
  }

  static unreachable(): ApiError {
    return new ApiError(UNREACHABLE, undefined);
  }

  /** What was thrown, as an ApiError: anything else (a bug of the page) as a 500 saying what. */
  static of(thrown: unknown): ApiError {
    return thrown instanceof ApiError ? thrown : new ApiError(500, { detail: String(thrown) });
  }
}

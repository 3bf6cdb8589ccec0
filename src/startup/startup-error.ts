/**
 * A reason the service cannot start that the person starting it can fix: its message is the
 * whole story in one line (what failed, why, and what to do), printed without a stack trace.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

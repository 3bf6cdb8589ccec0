/**
 * Every measured server's young generation, fixed at one size. Left to V8, it grows with what
 * each process happened to allocate so far, and a small GET's CPU followed it: the same build
 * measured 331 and 428 µs per request in two runs of one day, enough to hide or invent a 10%
 * difference between two builds. Fixed and equal, the two builds pay for their own garbage alone.
 */
export const YOUNG_GENERATION = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

/**
 * The settings a measured service runs with, as in production: a JSON line per request (probes
 * aside), written to a stdout the bench throws away (`stdoutFile: '/dev/null'`).
 */
export const AS_IN_PRODUCTION = {
  LOG_LEVEL: 'log',
  LOG_FORMAT: 'json',
  NODE_ENV: 'production',
  // The floors set no statement timeout: a 30 MB list on a busy machine may take longer
  // than the service's default 5 s, and a refused answer measures nothing.
  DB_STATEMENT_TIMEOUT_MS: '60000',
};

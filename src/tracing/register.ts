/**
 * Imported first by `main.ts`, before any module that loads `http`, `express` or `pg`: the
 * instrumentations patch those as they are first required. Only the service's own start
 * imports it; the command line and the accounts tool never trace.
 */
import { startTracing } from './tracing';

startTracing(process.env);

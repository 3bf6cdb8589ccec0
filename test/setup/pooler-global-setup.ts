import { PgBouncer, THROUGH_POOLER_ENV } from '../support/pgbouncer';
import globalSetup from './global-setup';
import { TEST_SERVER_ENV } from './test-server';

declare global {
  var __TEST_PGBOUNCER__: PgBouncer | undefined;
}

/**
 * `npm run test:pooler`: the test server as `npm test` has it, then a PgBouncer in transaction
 * mode in front of it, which every test then reaches it through (their databases, the
 * services they start, their own SQL).
 */
export default async function poolerGlobalSetup(): Promise<void> {
  await globalSetup();
  const bouncer = await PgBouncer.start(process.env[TEST_SERVER_ENV]!);
  globalThis.__TEST_PGBOUNCER__ = bouncer;
  process.env[TEST_SERVER_ENV] = bouncer.route(process.env[TEST_SERVER_ENV]!);
  process.env[THROUGH_POOLER_ENV] = process.env[TEST_SERVER_ENV];
}

import { e2eVariant } from './e2e-variant.jest';

/**
 * `npm run test:pooler`: the tests whose promise depends on how the service reaches PostgreSQL,
 * run through PgBouncer in transaction mode (test/setup/pooler-global-setup.ts): start-up and
 * migrations by several instances at once, the time limits of statements and transactions, the
 * contract's operations, races and streamed lists, and the sweep of silence's advisory lock. It needs `pgbouncer` installed; `npm
 * test` does not.
 */
const POOLED_TESTS = [
  'behind-pooler.pooler-spec.ts',
  'database-timeouts.e2e-spec.ts',
  'scopes.e2e-spec.ts',
  'streams-create.e2e-spec.ts',
  'streams-lifecycle.e2e-spec.ts',
  'reader-groups.e2e-spec.ts',
  'streamed-lists.e2e-spec.ts',
  'multi-instance.e2e-spec.ts',
  'load-reports.e2e-spec.ts',
];

export default e2eVariant('pooler', {
  testMatch: POOLED_TESTS.map((file) => `<rootDir>/test/${file}`),
  globalSetup: '<rootDir>/test/setup/pooler-global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/pooler-global-teardown.ts',
});

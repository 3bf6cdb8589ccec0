import globalTeardown from './global-teardown';

export default async function poolerGlobalTeardown(): Promise<void> {
  await globalThis.__TEST_PGBOUNCER__?.stop();
  await globalTeardown();
}

import { rm } from 'node:fs/promises';

export default async function globalTeardown(): Promise<void> {
  const embedded = globalThis.__EMBEDDED_TEST_POSTGRES__;
  if (!embedded) return;
  await embedded.server.stop();
  await rm(embedded.dir, { recursive: true, force: true });
}

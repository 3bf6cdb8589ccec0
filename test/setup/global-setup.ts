import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { assertTestDatabase, TEST_SERVER_ENV } from './test-server';

declare global {
  var __EMBEDDED_TEST_POSTGRES__: { server: EmbeddedPostgres; dir: string } | undefined;
}

/**
 * With DATABASE_URL (CI, or a developer's server) the tests use that server; without it they
 * start an embedded PostgreSQL of their own in a temporary directory.
 */
export default async function globalSetup(): Promise<void> {
  // Each run reports its own figures (test/support/figures.ts).
  await rm(join(__dirname, '../../test-output/figures.jsonl'), { force: true });
  let url = process.env.DATABASE_URL;
  if (!url) {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-test-'));
    await chmod(dir, 0o755);
    const server = new EmbeddedPostgres(dir, { log: () => undefined, error: () => undefined });
    url = (await server.start()).replace(/\/tributary$/, '/tributary_test');
    globalThis.__EMBEDDED_TEST_POSTGRES__ = { server, dir };
    const admin = new Client({ connectionString: url.replace(/\/tributary_test$/, '/postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE tributary_test');
    await admin.end();
  }
  assertTestDatabase(url);
  const probe = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await probe.connect();
  await probe.end();
  process.env[TEST_SERVER_ENV] = url;
}

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { TEST_SERVER_ENV } from '../setup/test-server';

function serverUrl(): string {
  const url = process.env[TEST_SERVER_ENV];
  if (!url)
    throw new Error(`${TEST_SERVER_ENV} is not set: run the tests through jest's global setup`);
  return url;
}

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database of its own for one test file, on the test server. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(serverUrl());
  const name = `${base.pathname.slice(1)}_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

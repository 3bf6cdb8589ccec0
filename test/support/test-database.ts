import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { typeOrmOptions } from '../../src/database/typeorm-options';
import { openDatabase } from '../../src/startup/open-database';
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

/** TypeORM's data source for a test database, as the service configures it; initialized. */
export function openDataSource(url: string, poolSize = 1): Promise<DataSource> {
  return new DataSource(
    typeOrmOptions({ url, poolSize, statementTimeoutMs: 60_000, connectTimeoutMs: 5_000 }),
  ).initialize();
}

/** A fresh database with the service's migrations applied, and a data source on it. */
export async function openMigratedDatabase(
  poolSize = 1,
): Promise<{ dataSource: DataSource; url: string; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  await openDatabase(loadConfig({ LOG_LEVEL: 'fatal', DATABASE_URL: database.url }));
  return { ...database, dataSource: await openDataSource(database.url, poolSize) };
}

import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { typeOrmOptions } from './typeorm-options';

/** The data source of the TypeORM CLI (`npm run migration:*`); needs DATABASE_URL. */
const config = loadConfig(process.env);
if (!config.DATABASE_URL) {
  throw new Error('DATABASE_URL must name the database the TypeORM CLI works on');
}

export default new DataSource(
  typeOrmOptions({
    url: config.DATABASE_URL,
    poolSize: 2,
    statementTimeoutMs: 10 * 60 * 1000,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
  }),
);

import type { Config } from 'jest';
import { resolve } from 'node:path';
import base from '../jest.config';

type Project = Exclude<NonNullable<Config['projects']>[number], string>;
const e2e = (base.projects as Project[]).find((project) => project.displayName === 'e2e')!;
const root = resolve(__dirname, '..');

/**
 * `npm run test:observability`: the alert rules and the Grafana dashboard of `deploy/`, checked
 * by promtool and by a real Prometheus scraping the built service (docs/alerting.md). It needs
 * Debian's `prometheus` package (prometheus and promtool); `npm test` does not.
 */
const config: Config = {
  rootDir: root,
  reporters: base.reporters,
  testTimeout: base.testTimeout,
  projects: [
    {
      ...e2e,
      rootDir: root,
      displayName: 'observability',
      testMatch: ['<rootDir>/test/observability/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
  ],
};

export default config;

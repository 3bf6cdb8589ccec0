import type { Config } from 'jest';
import { resolve } from 'node:path';

/**
 * Nest 12 ships its packages as ES modules. Node loads them from CommonJS (require(esm)), but
 * jest's module system can only do so on Node 24.9+. On older Nodes, babel turns those ES
 * modules into CommonJS for the tests; our own code compiles exactly as in production.
 */
const ESM_PACKAGES = [
  '@nestjs',
  'uid',
  'file-type',
  'es-toolkit',
  'js-yaml',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@seriousme',
  'jose',
  'oidc-provider',
];

const [major, minor] = process.versions.node.split('.').map(Number);
/** Whether jest can load those ES modules itself (Node 24.9 and later). */
const requiresEsm = major > 24 || (major === 24 && minor >= 9);

const shared: Config = {
  testEnvironment: 'node',
  rootDir: '.',
  transform: {
    '^.+\\.ts$': 'ts-jest',
    '^.+\\.m?js$': [
      'babel-jest',
      {
        babelrc: false,
        configFile: false,
        sourceType: 'unambiguous',
        plugins: [
          // From the project's root, where npm runs jest: Node 24 loads this file as an ES module,
          // which has no __dirname.
          resolve('test/setup/babel-drop-create-require.js'),
          'babel-plugin-transform-import-meta',
          '@babel/plugin-transform-export-namespace-from',
          '@babel/plugin-transform-modules-commonjs',
        ],
      },
    ],
  },
  transformIgnorePatterns: requiresEsm
    ? ['/node_modules/']
    : [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
};

const config: Config = {
  // Most of a test's time is spent waiting on PostgreSQL, a child process or a browser: two
  // files at a time keep two cores busy (jest's default, one fewer than the cores, keeps one).
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  testTimeout: 60_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/web/src/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
      ],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // Against a real Prometheus: `npm run test:observability` (test/observability.jest.config.ts).
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/observability/'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};

export default config;

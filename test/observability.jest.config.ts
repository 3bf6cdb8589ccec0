import { e2eVariant } from './e2e-variant.jest';

/**
 * `npm run test:observability`: the alert rules and the Grafana dashboard of `deploy/`, checked
 * by promtool and by a real Prometheus scraping the built service (docs/alerting.md). It needs
 * Debian's `prometheus` package (prometheus and promtool); `npm test` does not.
 */
export default e2eVariant('observability', {
  testMatch: ['<rootDir>/test/observability/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
});

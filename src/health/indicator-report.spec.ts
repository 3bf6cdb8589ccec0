import { HealthStatus } from './health-status';
import { reportOf } from './indicator-report';

describe('reportOf', () => {
  it('maps a Terminus result to a status and string details', () => {
    expect(
      reportOf({ database: { status: 'up', responseTime: 3, cachedResponse: true } }, false),
    ).toEqual({
      status: HealthStatus.UP,
      details: { responseTime: '3', cachedResponse: 'true' },
      vital: false,
    });
  });

  it('maps down to DOWN, keeps the message, and drops empty values', () => {
    expect(
      reportOf({ heap: { status: 'down', message: 'too big', extra: null, limits: [1, 2] } }, true),
    ).toEqual({
      status: HealthStatus.DOWN,
      details: { message: 'too big', limits: '[1,2]' },
      vital: true,
    });
  });

  it('treats degraded as still serving', () => {
    expect(reportOf({ x: { status: 'degraded' } }, false).status).toBe(HealthStatus.UP);
  });
});

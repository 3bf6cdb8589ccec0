import { InvalidConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 9091,
      HOST: '0.0.0.0',
      DATABASE_URL: undefined,
      LOG_LEVEL: 'log',
      DATA_DIR: './data',
      MAX_BODY_BYTES: 1048576,
      METRICS_ENABLED: true,
      IDEMPOTENCY_TTL_HOURS: 24,
    });
  });

  it('reads IDEMPOTENCY_TTL_HOURS', () => {
    expect(loadConfig({ IDEMPOTENCY_TTL_HOURS: '2' }).IDEMPOTENCY_TTL_HOURS).toBe(2);
  });

  it.each([
    ['false', false],
    ['FALSE', false],
    ['true', true],
  ])('reads METRICS_ENABLED=%s', (value, expected) => {
    expect(loadConfig({ METRICS_ENABLED: value }).METRICS_ENABLED).toBe(expected);
  });

  it('reads numbers, urls and levels from strings', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@localhost:5432/db',
      LOG_LEVEL: 'debug',
      MAX_BODY_BYTES: '2048',
    });
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBe('postgres://u@localhost:5432/db');
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config.MAX_BODY_BYTES).toBe(2048);
  });

  it('treats an empty DATABASE_URL as absent and info as log', () => {
    const config = loadConfig({ DATABASE_URL: '', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('log');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '1.5'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['MAX_BODY_BYTES', '0'],
    ['METRICS_ENABLED', 'yes'],
    ['IDEMPOTENCY_TTL_HOURS', '0'],
    ['IDEMPOTENCY_TTL_HOURS', '1.5'],
    ['IDEMPOTENCY_TTL_HOURS', '9000'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(InvalidConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidConfigError);
      expect((error as InvalidConfigError).problems).toHaveLength(2);
    }
  });
});

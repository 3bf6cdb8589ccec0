import { LogCapture } from '../../test/support/log-capture';
import { LOG_LEVELS } from '../config/app-config';
import { createLogger, defaultLogFormat, PINO_LEVEL } from './logger';

describe('defaultLogFormat', () => {
  it('is readable lines for a terminal and JSON for anything else', () => {
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
    expect(defaultLogFormat({ isTTY: false })).toBe('json');
    expect(defaultLogFormat({})).toBe('json');
  });
});

describe('createLogger', () => {
  it('writes one JSON object per line with the level by name and an ISO time', () => {
    const out = new LogCapture();
    createLogger('log', out).info({ context: 'Test' }, 'hello');
    expect(out.lines).toEqual([
      expect.objectContaining({ level: 'info', context: 'Test', msg: 'hello' }),
    ]);
    expect(new Date(out.lines[0].time as string).toISOString()).toBe(out.lines[0].time);
  });

  it('maps every LOG_LEVEL to a pino level of the same severity order', () => {
    const logger = createLogger('fatal');
    const values = LOG_LEVELS.map((level) => logger.levels.values[PINO_LEVEL[level]]);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(PINO_LEVEL.log).toBe('info');
    expect(PINO_LEVEL.verbose).toBe('trace');
  });

  it('logs nothing below LOG_LEVEL', () => {
    const out = new LogCapture();
    const logger = createLogger('warn', out);
    logger.info('quiet');
    logger.warn('loud');
    expect(out.lines.map((line) => line.msg)).toEqual(['loud']);
  });

  it('redacts credentials in headers and password fields at any usual depth', () => {
    const out = new LogCapture();
    createLogger('log', out).info({
      req: { headers: { authorization: 'Basic c2VjcmV0', cookie: 'session=s3cr3t' } },
      res: { headers: { 'set-cookie': 'session=s3cr3t' } },
      password: 'p1',
      body: { password: 'p2', account: { password: 'p3', nested: { password: 'p4' } } },
    });
    expect(out.text).not.toMatch(/c2VjcmV0|s3cr3t|p1|p2|p3|p4/);
    expect(out.lines[0]).toMatchObject({
      req: { headers: { authorization: '[Redacted]', cookie: '[Redacted]' } },
      password: '[Redacted]',
      body: { password: '[Redacted]', account: { password: '[Redacted]' } },
    });
  });
});

import { diag, DiagLogLevel } from '@opentelemetry/api';
import { LogCapture } from '../../test/support/log-capture';
import { createLogger } from '../logging/logger';
import {
  diagnosticsLevelOf,
  holdTracingDiagnostics,
  logTracingDiagnostics,
} from './tracing-diagnostics';

describe('diagnosticsLevelOf', () => {
  it('reads OTEL_LOG_LEVEL in any case, warnings and errors when unset or unknown', () => {
    expect(diagnosticsLevelOf({ OTEL_LOG_LEVEL: 'debug' })).toBe(DiagLogLevel.DEBUG);
    expect(diagnosticsLevelOf({ OTEL_LOG_LEVEL: ' ERROR ' })).toBe(DiagLogLevel.ERROR);
    expect(diagnosticsLevelOf({ OTEL_LOG_LEVEL: 'none' })).toBe(DiagLogLevel.NONE);
    expect(diagnosticsLevelOf({})).toBe(DiagLogLevel.WARN);
    expect(diagnosticsLevelOf({ OTEL_LOG_LEVEL: 'loud' })).toBe(DiagLogLevel.WARN);
    expect(diagnosticsLevelOf({ OTEL_LOG_LEVEL: '50' })).toBe(DiagLogLevel.WARN);
  });
});

describe('logTracingDiagnostics', () => {
  afterEach(() => diag.disable());

  it("writes the SDK's reports as the service's log entries, from OTEL_LOG_LEVEL's level on", () => {
    const out = new LogCapture();
    logTracingDiagnostics(createLogger('verbose', out), {});
    diag.error('export failed', new Error('connect ECONNREFUSED'));
    diag.warn('dropped spans');
    diag.info('not at the default level');
    expect(out.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        context: 'OpenTelemetry',
        msg: 'export failed',
        details: ['Error: connect ECONNREFUSED'],
      }),
      expect.objectContaining({ level: 'warn', context: 'OpenTelemetry', msg: 'dropped spans' }),
    ]);
  });

  it('writes first what the SDK reported before the log existed', () => {
    holdTracingDiagnostics({});
    diag.error('unknown OTEL_TRACES_SAMPLER value "sometimes", using default');
    diag.info('below the default level');
    const out = new LogCapture();
    logTracingDiagnostics(createLogger('log', out), {});
    diag.warn('later');
    expect(out.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        context: 'OpenTelemetry',
        msg: 'unknown OTEL_TRACES_SAMPLER value "sometimes", using default',
      }),
      expect.objectContaining({ level: 'warn', msg: 'later' }),
    ]);
  });

  it('says an exception the SDK reports as JSON by its message', () => {
    const out = new LogCapture();
    logTracingDiagnostics(createLogger('log', out), {});
    diag.error(JSON.stringify({ stack: 'Error: at ...', message: 'connect ECONNREFUSED' }));
    diag.error('{not JSON');
    expect(out.lines.map((line) => line.msg)).toEqual(['connect ECONNREFUSED', '{not JSON']);
  });

  it('writes as much as OTEL_LOG_LEVEL asks, within the log level of the service', () => {
    const verbose = new LogCapture();
    logTracingDiagnostics(createLogger('verbose', verbose), { OTEL_LOG_LEVEL: 'verbose' });
    diag.verbose('every detail');
    expect(verbose.lines).toContainEqual(
      expect.objectContaining({ level: 'trace', msg: 'every detail' }),
    );

    const quiet = new LogCapture();
    logTracingDiagnostics(createLogger('log', quiet), { OTEL_LOG_LEVEL: 'debug' });
    diag.debug('below the log level');
    diag.info('at it');
    expect(quiet.lines.map((line) => line.msg)).toEqual(['at it']);
  });
});

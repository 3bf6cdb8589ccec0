import { Logger } from '@nestjs/common';
import { LogCapture } from '../../test/support/log-capture';
import { createLogger } from './logger';
import { NestPinoLogger, toLogEntry } from './nest-logger';

const STACK = 'Error: boom\n    at thing (/app/src/thing.ts:1:2)';

describe('toLogEntry', () => {
  it.each([
    ['a message with its context', 'log', ['hello', 'Ctx'], [{ context: 'Ctx' }, 'hello']],
    ['a message alone', 'log', ['hello'], [{}, 'hello']],
    [
      'an error, its stack and context',
      'error',
      ['bad', STACK, 'Ctx'],
      [{ context: 'Ctx', stack: STACK }, 'bad'],
    ],
    ['an error without a stack', 'error', ['bad', undefined, 'Ctx'], [{ context: 'Ctx' }, 'bad']],
    ['an error with its context only', 'error', ['bad', 'Ctx'], [{ context: 'Ctx' }, 'bad']],
    ['an error with its stack only', 'error', ['bad', STACK], [{ stack: STACK }, 'bad']],
    [
      'fields as an object',
      'log',
      ['hello', { scope: 's' }, 'Ctx'],
      [{ context: 'Ctx', scope: 's' }, 'hello'],
    ],
    [
      'an object as the message',
      'warn',
      [{ msg: 'hi', n: 1 }, 'Ctx'],
      [{ msg: 'hi', n: 1, context: 'Ctx' }, undefined],
    ],
    [
      'other values as params',
      'log',
      ['hello', 42, 'Ctx'],
      [{ context: 'Ctx', params: [42] }, 'hello'],
    ],
  ])('reads %s', (_what, level, [message, ...params], expected) => {
    expect(toLogEntry(message, params, level === 'error')).toEqual(expected);
  });

  it('keeps an Error as `err` and its message as the line', () => {
    const error = new Error('boom');
    expect(toLogEntry(error, ['Ctx'], true)).toEqual([{ context: 'Ctx', err: error }, 'boom']);
  });
});

describe('NestPinoLogger', () => {
  it("writes Nest's logs as pino lines, each at its level", () => {
    const out = new LogCapture();
    const nest = new NestPinoLogger(createLogger('verbose', out));
    const logger = new Logger('Ctx');
    Logger.overrideLogger(nest);
    try {
      logger.log('a');
      logger.warn('b');
      logger.error('c', STACK);
      logger.debug('d');
      logger.verbose('e');
      logger.fatal('f');
    } finally {
      Logger.overrideLogger(false);
    }
    expect(out.lines.map(({ level, msg, context }) => [level, msg, context])).toEqual([
      ['info', 'a', 'Ctx'],
      ['warn', 'b', 'Ctx'],
      ['error', 'c', 'Ctx'],
      ['debug', 'd', 'Ctx'],
      ['trace', 'e', 'Ctx'],
      ['fatal', 'f', 'Ctx'],
    ]);
    expect(out.lines[2].stack).toBe(STACK);
  });

  it('drops what is below the level before building the line', () => {
    const out = new LogCapture();
    new NestPinoLogger(createLogger('log', out)).debug('hidden', 'Ctx');
    expect(out.text).toBe('');
  });
  it("writes Nest's boot-time wiring of modules and routes at debug, its other lines at info", () => {
    const out = new LogCapture();
    const nest = new NestPinoLogger(createLogger('debug', out));
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Mapped {/v1/scopes, GET} route', 'RouterExplorer');
    nest.log('ScopesController {/v1/scopes}:', 'RoutesResolver');
    nest.log('Nest application successfully started', 'NestApplication');
    expect(out.lines.map((line) => [line.context, line.level])).toEqual([
      ['InstanceLoader', 'debug'],
      ['RouterExplorer', 'debug'],
      ['RoutesResolver', 'debug'],
      ['NestApplication', 'info'],
    ]);
  });
});

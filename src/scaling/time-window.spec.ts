import { violatedFields } from '../../test/support/violated-fields';
import { toInstant, toTimeWindow } from './time-window';

describe('toTimeWindow', () => {
  it('reads integers and allows an empty window of one instant', () => {
    expect(toTimeWindow({ from: '0', to: '10' })).toEqual({ from: 0, to: 10 });
    expect(toTimeWindow({ from: '5', to: '5' })).toEqual({ from: 5, to: 5 });
  });

  it.each([
    [{}, ['from', 'to']],
    [{ from: '1' }, ['to']],
    [{ from: 'abc', to: '1' }, ['from']],
    [{ from: '-1', to: '1' }, ['from']],
    [{ from: '1.5', to: '2' }, ['from']],
    [{ from: '1e3', to: '2000' }, ['from']],
    [{ from: '9007199254740993', to: '9007199254740993' }, ['from', 'to']],
    [{ from: ['1', '2'], to: '3' }, ['from']],
    [{ from: '10', to: '9' }, ['to']],
  ])('rejects %j naming %j', (query, fields) => {
    expect(violatedFields(() => toTimeWindow(query))).toEqual(fields);
  });
});

describe('toInstant', () => {
  it('reads an integer, or nothing when absent', () => {
    expect([toInstant('0', 'at'), toInstant('1764000000123', 'at')]).toEqual([0, 1764000000123]);
    expect(toInstant(undefined, 'at')).toBeUndefined();
  });

  it.each(['', 'now', '-1', '1.5', '1e3', '9007199254740993', ['1', '2']])(
    'rejects %j naming the field',
    (value) => {
      expect(violatedFields(() => toInstant(value, 'at'))).toEqual(['at']);
    },
  );
});

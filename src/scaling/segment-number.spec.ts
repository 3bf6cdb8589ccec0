import { violatedFields } from '../../test/support/violated-fields';
import { MAX_SEGMENT_NUMBER, toSegmentNumber } from './segment-number';

describe('toSegmentNumber', () => {
  it('reads digits up to the int32 maximum', () => {
    expect(
      ['0', '7', '007', '00000000007', `000${MAX_SEGMENT_NUMBER}`, String(MAX_SEGMENT_NUMBER)].map(
        (v) => toSegmentNumber(v),
      ),
    ).toEqual([0, 7, 7, 7, MAX_SEGMENT_NUMBER, MAX_SEGMENT_NUMBER]);
  });

  it.each([
    '',
    '-1',
    '1.0',
    '1e3',
    ' 1',
    'abc',
    '2147483648',
    '99999999999',
    '0002147483648',
    '9'.repeat(40),
  ])('refuses %j, naming the number', (value) => {
    expect(violatedFields(() => toSegmentNumber(value))).toEqual(['number']);
  });
});

import { stripVTControlCharacters } from 'node:util';
import { InvalidArgumentError } from 'commander';
import { keyRange, segmentNumbers } from './arguments';
import { drawingWidth, keySpaceDrawing, keySpaceLine } from './key-space';

const seg = (number: number, keyStart: number, keyEnd: number) => ({ number, keyStart, keyEnd });
const QUARTERS = [seg(0, 0, 0.25), seg(1, 0.25, 0.5), seg(2, 0.5, 0.75), seg(3, 0.75, 1)];
/** The words and lines drawn, without the colour a terminal may add. */
const plain = (text: string) => stripVTControlCharacters(text);

describe('keySpaceLine', () => {
  it('draws an edge at each start and at 1, the number in the middle of its segment', () => {
    expect(plain(keySpaceLine(QUARTERS, 20))).toBe('│──0─│──1─│──2─│──3─│');
  });

  it('draws the same whatever order the segments come in', () => {
    expect(plain(keySpaceLine([...QUARTERS].reverse(), 20))).toBe(
      plain(keySpaceLine(QUARTERS, 20)),
    );
  });

  it('marks changed segments with another fill, so it shows without colour', () => {
    expect(plain(keySpaceLine(QUARTERS, 20, new Set([1, 2])))).toBe('│──0─│══1═│══2═│──3─│');
  });

  it('leaves out numbers that do not fit, and segments narrower than a column show as an edge', () => {
    const narrow = [seg(0, 0, 0.001), seg(17, 0.001, 0.1), seg(123, 0.1, 1)];
    expect(plain(keySpaceLine(narrow, 20))).toBe('│─│───────123───────│');
  });
});

describe('keySpaceDrawing', () => {
  it('aligns the rows under their labels over one axis from 0 to 1', () => {
    const after = [seg(0, 0, 0.25), seg(4, 0.25, 0.4), seg(5, 0.4, 0.75), seg(3, 0.75, 1)];
    const text = keySpaceDrawing(
      [
        { label: 'before', segments: QUARTERS, changed: new Set([1, 2]) },
        { label: 'after', segments: after, changed: new Set([4, 5]) },
      ],
      20,
    );
    expect(plain(text).split('\n')).toEqual([
      'before │──0─│══1═│══2═│──3─│',
      'after  │──0─│═4│═══5══│──3─│',
      '       0                   1',
    ]);
  });

  it('fits the terminal, within 20 to 100 columns', () => {
    expect([drawingWidth(80, 7), drawingWidth(300, 7), drawingWidth(10, 7)]).toEqual([71, 100, 20]);
    expect(drawingWidth(undefined, 7)).toBe(71);
  });
});

describe('segment and range options', () => {
  it('reads segment numbers separated by commas, from repeated options', () => {
    expect(segmentNumbers('5', segmentNumbers('2,3'))).toEqual([2, 3, 5]);
    for (const bad of ['', '2,', 'a', '-1', '1.5']) {
      expect(() => segmentNumbers(bad)).toThrow(InvalidArgumentError);
    }
  });

  it('reads START:END ranges exactly as typed, in order', () => {
    expect(keyRange('0.4:0.75', keyRange('0.25:0.4'))).toEqual([
      { keyStart: 0.25, keyEnd: 0.4 },
      { keyStart: 0.4, keyEnd: 0.75 },
    ]);
    expect(keyRange('0.30000000000000004:1')).toEqual([{ keyStart: 0.1 + 0.2, keyEnd: 1 }]);
    expect(keyRange('.25:2.5e-1')).toEqual([{ keyStart: 0.25, keyEnd: 0.25 }]);
    for (const bad of [
      '0.5',
      ':1',
      '0:',
      'a:1',
      '0:1:2',
      '0:Infinity',
      '0x0:1',
      '0:0b1',
      '0:1_0',
    ]) {
      expect(() => keyRange(bad)).toThrow(InvalidArgumentError);
    }
  });
});

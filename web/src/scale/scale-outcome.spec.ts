import { outcomeText } from './scale-outcome';

const opened = (...numbers: number[]) =>
  numbers.map((number) => ({ number, startTime: 1, keyStart: 0, keyEnd: 1 }));

describe('outcomeText', () => {
  it('says what a dry run would do', () => {
    expect(
      outcomeText(
        { epoch: 4, sealedSegments: [2], newSegments: opened(5, 6, 7), splits: 1, merges: 0 },
        { dryRun: true },
      ),
    ).toBe('Epoch 4 would seal segment 2 and open segments 5, 6 and 7 (1 split).');
  });

  it('says what a scale did, its splits and merges counted', () => {
    expect(
      outcomeText(
        { epoch: 2, sealedSegments: [1, 2], newSegments: opened(4, 5), splits: 1, merges: 1 },
        { dryRun: false },
      ),
    ).toBe(
      'Scaled: epoch 2 sealed segments 1 and 2 and opened segments 4 and 5 (1 split and 1 merge).',
    );
    expect(
      outcomeText(
        { epoch: 3, sealedSegments: [3, 4], newSegments: opened(6), splits: 0, merges: 1 },
        { dryRun: false },
      ),
    ).toBe('Scaled: epoch 3 sealed segments 3 and 4 and opened segment 6 (1 merge).');
    expect(
      outcomeText(
        { epoch: 5, sealedSegments: [6], newSegments: opened(7), splits: 0, merges: 0 },
        { dryRun: false },
      ),
    ).toBe('Scaled: epoch 5 sealed segment 6 and opened segment 7.');
  });
});

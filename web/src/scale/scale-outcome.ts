import type { ScaleStreamResult } from '../api/types';
import { segmentsText } from './scale-plan';

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `(1 split and 1 merge)`, or nothing when the scale neither splits nor merges. */
function splitsAndMerges({ splits, merges }: Pick<ScaleStreamResult, 'splits' | 'merges'>) {
  const parts = [
    splits ? counted(splits, 'split', 'splits') : '',
    merges ? counted(merges, 'merge', 'merges') : '',
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(' and ')})` : '';
}

/** What a scale did, or a dry run says it would do, in a sentence. */
export function outcomeText(
  result: Pick<ScaleStreamResult, 'epoch' | 'sealedSegments' | 'newSegments' | 'splits' | 'merges'>,
  { dryRun }: { dryRun: boolean },
): string {
  const sealed = segmentsText(result.sealedSegments);
  const opened = segmentsText(result.newSegments.map((s) => s.number));
  const counts = splitsAndMerges(result);
  return dryRun
    ? `Epoch ${result.epoch} would seal ${sealed} and open ${opened}${counts}.`
    : `Scaled: epoch ${result.epoch} sealed ${sealed} and opened ${opened}${counts}.`;
}

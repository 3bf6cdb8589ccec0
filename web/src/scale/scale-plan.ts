import type { KeyRange, ScaleStreamRequest, Segment } from '../api/types';
import { formatKeyRange } from '../format/format';

/** The most new ranges one scale may open: the API refuses more. */
export const MAX_NEW_RANGES = 1000;

/** What to make of the selected segments: each split into equal parts, or all merged into one. */
export type ScaleChoice = { kind: 'split'; parts: string } | { kind: 'merge' };

/** The request a choice makes, or why it makes none (`field`: the problem is that field's). */
export type ScalePlan = { request: ScaleStreamRequest } | { problem: string; field?: 'parts' };

const byKeyStart = <R extends KeyRange>(ranges: readonly R[]): R[] =>
  [...ranges].sort((a, b) => a.keyStart - b.keyStart);

/**
 * `range` cut into `parts` equal ranges the way the service cuts the key space into equal
 * segments (bound i is i/n of the way): bound i is `keyStart + (keyEnd - keyStart) * i / parts`,
 * except the first and the last, which are the range's own bounds. The API compares bounds
 * exactly, so the new ranges must start and end on the very numbers the sealed segment has (a
 * computed last bound can miss `keyEnd` by a rounding), and each inner bound is one number,
 * the end of one part and the start of the next. Undefined when the range is too narrow for
 * that many distinct bounds.
 */
export function splitRange(range: KeyRange, parts: number): KeyRange[] | undefined {
  const { keyStart, keyEnd } = range;
  const bounds = Array.from({ length: parts + 1 }, (_, i) =>
    i === 0 ? keyStart : i === parts ? keyEnd : keyStart + ((keyEnd - keyStart) * i) / parts,
  );
  if (bounds.some((bound, i) => i > 0 && !(bound > bounds[i - 1]))) return undefined;
  return bounds.slice(1).map((end, i) => ({ keyStart: bounds[i], keyEnd: end }));
}

/**
 * The first two segments (by key) that are not neighbours, with the active segments between
 * them; undefined when each ends on the very number the next one starts at (as the API joins
 * neighbours: exact equality, no tolerance).
 */
export function firstGap(
  selected: readonly Segment[],
  active: readonly Segment[],
): { below: Segment; above: Segment; between: Segment[] } | undefined {
  const sorted = byKeyStart(selected);
  for (let i = 1; i < sorted.length; i++) {
    const [below, above] = [sorted[i - 1], sorted[i]];
    if (below.keyEnd === above.keyStart) continue;
    const between = byKeyStart(
      active.filter((s) => s.keyStart >= below.keyEnd && s.keyEnd <= above.keyStart),
    );
    return { below, above, between };
  }
  return undefined;
}

/** `segment 4`, `segments 4 and 5`, `segments 4, 5 and 7`. */
export function segmentsText(numbers: readonly number[]): string {
  if (numbers.length <= 1) return `segment ${numbers.join('')}`;
  return `segments ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

const numbered = (segments: readonly Segment[]): string =>
  segmentsText(segments.map((s) => s.number));

/** Why the selection cannot merge: the first two that are not neighbours, and what lies between. */
function notNeighbours(gap: NonNullable<ReturnType<typeof firstGap>>): string {
  const pair = `Segments ${gap.below.number} and ${gap.above.number} are not neighbours`;
  const between = gap.between.length
    ? `: ${numbered(gap.between)} ${gap.between.length === 1 ? 'lies' : 'lie'} between them`
    : '';
  return (
    `${pair}${between}. Only neighbouring segments merge into one: select the segments ` +
    'between them too, or split instead.'
  );
}

const numbersOf = (segments: readonly Segment[]): number[] =>
  segments.map((s) => s.number).sort((a, b) => a - b);

function splitPlan(selected: Segment[], partsText: string): ScalePlan {
  const parts = /^\s*\d+\s*$/.test(partsText) ? Number(partsText) : Number.NaN;
  if (!(parts >= 2)) return { problem: 'must be a whole number, 2 or more', field: 'parts' };
  const most = Math.floor(MAX_NEW_RANGES / selected.length);
  if (parts > most) {
    const of = selected.length === 1 ? 'one segment' : `${selected.length} segments`;
    return {
      problem: `must be at most ${most} for ${of}: a scale opens at most ${MAX_NEW_RANGES} segments`,
      field: 'parts',
    };
  }
  const newRanges: KeyRange[] = [];
  for (const segment of selected) {
    const ranges = splitRange(segment, parts);
    if (!ranges) {
      return {
        problem: `Segment ${segment.number} is too narrow to split into ${parts} parts.`,
        field: 'parts',
      };
    }
    newRanges.push(...ranges);
  }
  return { request: { sealedSegments: numbersOf(selected), newRanges } };
}

/**
 * The scale `choice` makes of the selected active segments (`active` as the API answered them,
 * so the bounds are its very numbers): split, each segment into `parts` equal ones, in key
 * order (the new segments are numbered in that order, upwards); merge, neighbours into one
 * segment over exactly their key space. What the API would refuse for its shape is said here
 * and never sent; what depends on the stream (its minimum, a change meanwhile) is the dry run's.
 */
export function scalePlan(
  active: readonly Segment[],
  selected: ReadonlySet<number>,
  choice: ScaleChoice,
): ScalePlan {
  const chosen = byKeyStart(active.filter((s) => selected.has(s.number)));
  if (chosen.length === 0) return { problem: 'Select one or more active segments on the map.' };
  if (choice.kind === 'split') return splitPlan(chosen, choice.parts);
  if (chosen.length < 2) {
    return { problem: 'Select two or more neighbouring segments to merge them.' };
  }
  const gap = firstGap(chosen, active);
  if (gap) return { problem: notNeighbours(gap) };
  return {
    request: {
      sealedSegments: numbersOf(chosen),
      newRanges: [{ keyStart: chosen[0].keyStart, keyEnd: chosen[chosen.length - 1].keyEnd }],
    },
  };
}

/** The choice a selection starts with: a merge when it is two or more neighbours, else a split in two. */
export function firstChoice(active: readonly Segment[], selected: ReadonlySet<number>) {
  const chosen = active.filter((s) => selected.has(s.number));
  return chosen.length >= 2 && !firstGap(chosen, active) ? 'merge' : 'split';
}

/**
 * The blocks of key space the segments cover (neighbours joined, as the API joins them), as
 * text: `[0.25, 0.75)` or `[0, 0.25) and [0.5, 1)`.
 */
export function blocksText(segments: readonly KeyRange[]): string {
  const blocks: KeyRange[] = [];
  for (const { keyStart, keyEnd } of byKeyStart(segments)) {
    const last = blocks[blocks.length - 1];
    if (last && last.keyEnd === keyStart) last.keyEnd = keyEnd;
    else blocks.push({ keyStart, keyEnd });
  }
  const texts = blocks.map((b) => formatKeyRange(b.keyStart, b.keyEnd));
  return texts.length <= 1
    ? texts.join('')
    : `${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`;
}

/** The selection in words, as it is announced when it changes. */
export function selectionSummary(
  active: readonly Segment[],
  selected: ReadonlySet<number>,
): string {
  const chosen = byKeyStart(active.filter((s) => selected.has(s.number)));
  if (chosen.length === 0) return 'No segment selected to scale.';
  const which = numbered(numberOrder(chosen));
  return `Selected to scale: ${which}, ${blocksText(chosen)}.`;
}

const numberOrder = (segments: readonly Segment[]): Segment[] =>
  [...segments].sort((a, b) => a.number - b.number);

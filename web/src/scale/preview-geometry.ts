import type { ScaleStreamResult, Segment } from '../api/types';
import { keyToY, Rect } from '../segment-map/geometry';

/** What the scale does to a segment: sealed by it, kept through it, or opened by it. */
export type PreviewKind = 'sealed' | 'kept' | 'new';

export interface PreviewRect extends Rect {
  kind: PreviewKind;
}

/** What the preview drew last, for tools and tests that check it against the dry run. */
export interface DrawnPreview {
  width: number;
  height: number;
  rects: PreviewRect[];
}

/**
 * The scale as a map of two epochs, the current one on the left half and the one the scale
 * makes on the right, the key space upwards: a kept segment runs across both, a sealed one ends
 * in the middle, a new one starts there. The sealed segments' ranges are the current epoch's
 * (`before`); everything else is the dry run's answer.
 */
export function previewRects(
  before: readonly Segment[],
  after: Pick<ScaleStreamResult, 'segments' | 'sealedSegments' | 'newSegments'>,
  width: number,
  height: number,
): PreviewRect[] {
  const view = { from: 0, to: 1, width, height };
  const middle = width / 2;
  const rect = (segment: Segment, kind: PreviewKind): PreviewRect => {
    const top = keyToY(segment.keyEnd, view);
    const x = kind === 'new' ? middle : 0;
    const w = kind === 'kept' ? width : middle;
    return { number: segment.number, kind, x, y: top, w, h: keyToY(segment.keyStart, view) - top };
  };
  const sealed = new Set(after.sealedSegments);
  const opened = new Set(after.newSegments.map((s) => s.number));
  return [
    ...before.filter((s) => sealed.has(s.number)).map((s) => rect(s, 'sealed')),
    ...after.segments.filter((s) => !opened.has(s.number)).map((s) => rect(s, 'kept')),
    ...after.newSegments.map((s) => rect(s, 'new')),
  ];
}

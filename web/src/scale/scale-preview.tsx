import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { ScaleStreamResult, Segment } from '../api/types';
import { formatKey, formatKeyRange } from '../format/format';
import { hatch, SELECTED_FILL } from '../segment-map/draw';
import { DrawnPreview, PreviewKind, PreviewRect, previewRects } from './preview-geometry';
import { outcomeText } from './scale-outcome';
import { segmentsText } from './scale-plan';

declare global {
  interface HTMLCanvasElement {
    /** The scale's preview as last drawn, for tools and tests that check it against the dry run. */
    scalePreview?: DrawnPreview;
  }
}

/** The picture's size in CSS pixels, and room for the key axis and the epochs' names. */
const SIZE = { width: 360, height: 200 };
const MARGIN = { left: 40, right: 8, top: 8, bottom: 22 };

const FILLS: Record<PreviewKind, string> = {
  sealed: SELECTED_FILL,
  kept: '#a9cbe8',
  new: '#9fdcb0',
};

const KIND_NAMES: Record<PreviewKind, string> = {
  sealed: 'sealed by the scale (hatched)',
  kept: 'kept',
  new: 'new',
};

function drawPreview(ctx: CanvasRenderingContext2D, rects: PreviewRect[], width: number) {
  const height = SIZE.height - MARGIN.top - MARGIN.bottom;
  ctx.save();
  ctx.translate(MARGIN.left, MARGIN.top);
  for (const r of rects) {
    ctx.fillStyle = FILLS[r.kind];
    ctx.fillRect(r.x, r.y, r.w, r.h);
  }
  ctx.strokeStyle = '#2f4358';
  ctx.lineWidth = 1;
  for (const r of rects) ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  for (const r of rects) if (r.kind === 'sealed') hatch(ctx, r);
  ctx.fillStyle = '#1b2a38';
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const r of rects) {
    if (r.h >= 14) ctx.fillText(String(r.number), r.x + r.w / 2, r.y + r.h / 2);
  }
  ctx.fillStyle = '#5b6b7b';
  ctx.textBaseline = 'top';
  ctx.fillText('now', width / 4, height + 6);
  ctx.fillText('after the scale', (width * 3) / 4, height + 6);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const key of [0, 0.5, 1]) ctx.fillText(formatKey(key), -6, (1 - key) * height);
  ctx.restore();
}

/**
 * What the dry run answered, as a map of two epochs (now, and after the scale: the sealed
 * segments hatched, the new ones in their own colour) and as a table of the segments the scale
 * would leave active.
 */
export function ScalePreview({ before, result }: { before: Segment[]; result: ScaleStreamResult }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = SIZE.width - MARGIN.left - MARGIN.right;
  const rects = useMemo(
    () => previewRects(before, result, width, SIZE.height - MARGIN.top - MARGIN.bottom),
    [before, result, width],
  );
  // Drawn in the same task as the page shows the dry run's text: never a picture of an older one.
  useLayoutEffect(() => {
    const node = canvas.current;
    const ctx = node?.getContext('2d');
    if (!node || !ctx) return;
    const ratio = globalThis.devicePixelRatio || 1;
    node.width = Math.round(SIZE.width * ratio);
    node.height = Math.round(SIZE.height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, SIZE.width, SIZE.height);
    drawPreview(ctx, rects, width);
    node.scalePreview = { width, height: SIZE.height - MARGIN.top - MARGIN.bottom, rects };
  }, [rects, width]);

  const opened = new Set(result.newSegments.map((s) => s.number));
  const summary = outcomeText(result, { dryRun: true });
  return (
    <div class="scale-preview">
      <p>{summary}</p>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`The segments now and after the scale. ${summary}`}
        style={{ width: `${SIZE.width}px`, height: `${SIZE.height}px` }}
      />
      <ul class="legend" aria-label="Legend">
        {(['sealed', 'kept', 'new'] as const).map((kind) => (
          <li key={kind}>
            <span class={`swatch ${kind}`} aria-hidden="true" />
            {KIND_NAMES[kind]}
          </li>
        ))}
      </ul>
      <h3 id="scale-after-heading">Segments after the scale</h3>
      <table aria-labelledby="scale-after-heading">
        <thead>
          <tr>
            <th scope="col">Segment</th>
            <th scope="col">Key range</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {result.segments.map((segment) => (
            <tr key={segment.number}>
              <th scope="row">{segment.number}</th>
              <td>{formatKeyRange(segment.keyStart, segment.keyEnd)}</td>
              <td>{opened.has(segment.number) ? 'new' : 'kept'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Sealed: {segmentsText(result.sealedSegments)}.</p>
    </div>
  );
}

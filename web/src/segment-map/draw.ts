import { formatKey } from '../format/format';
import { epochLines, keyToY, Rect, timeTicks, timeToX, View } from './geometry';

/** Room around the plot for the axes' labels, in CSS pixels. */
export const MARGIN = { left: 48, right: 12, top: 8, bottom: 28 };

/** Segments selected to scale (and, in the scale's preview, those it seals): a fill and a hatch. */
export const SELECTED_FILL = '#cdb8ec';
const HATCH = '#4b2a7b';
const HATCH_LINES = 'rgba(75, 42, 123, 0.5)';

const COLOURS = {
  sealed: '#dfe6ee',
  active: '#a9cbe8',
  related: '#fbe3a6',
  focused: '#f5b841',
  selected: SELECTED_FILL,
  stroke: '#2f4358',
  epoch: 'rgba(47, 67, 88, 0.28)',
  text: '#1b2a38',
  axis: '#5b6b7b',
};

/** Everything one drawing of the map shows. */
export interface Picture {
  view: View;
  rects: readonly Rect[];
  /** When each epoch began (a vertical line each). */
  epochTimes: readonly number[];
  /** Segments still active (drawn in their own colour). */
  active: ReadonlySet<number>;
  /** The segment in focus, and its predecessors and successors. */
  focused?: number;
  related: ReadonlySet<number>;
  /** Whether the keyboard is on the map: the focused segment gets a heavier outline. */
  keyboard: boolean;
  /** Segments selected to scale: hatched, whatever their fill, and outlined. */
  selected?: ReadonlySet<number>;
}

function fillOf(picture: Picture, number: number): string {
  if (number === picture.focused) return COLOURS.focused;
  if (picture.selected?.has(number)) return COLOURS.selected;
  if (picture.related.has(number)) return COLOURS.related;
  return picture.active.has(number) ? COLOURS.active : COLOURS.sealed;
}

/**
 * Diagonal lines across a rectangle and a heavy outline: what marks a selection without its
 * colour (for those who do not tell the colours apart, and under the focus's fill).
 */
export function hatch(ctx: CanvasRenderingContext2D, r: Rect): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(r.x, r.y, r.w, r.h);
  ctx.clip();
  ctx.strokeStyle = HATCH_LINES;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let d = -r.h; d < r.w; d += 8) {
    ctx.moveTo(r.x + d, r.y + r.h);
    ctx.lineTo(r.x + d + r.h, r.y);
  }
  ctx.stroke();
  ctx.strokeStyle = HATCH;
  ctx.lineWidth = 3;
  ctx.strokeRect(r.x + 1.5, r.y + 1.5, Math.max(0, r.w - 3), Math.max(0, r.h - 3));
  ctx.restore();
}

function timeLabel(time: number, span: number): string {
  const iso = new Date(time - new Date(time).getTimezoneOffset() * 60_000).toISOString();
  if (span < 60_000) return iso.slice(11, 23);
  if (span < 86_400_000) return iso.slice(11, 19);
  return iso.slice(0, 10);
}

function drawAxes(ctx: CanvasRenderingContext2D, view: View): void {
  ctx.fillStyle = COLOURS.axis;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const key of [0, 0.25, 0.5, 0.75, 1]) {
    ctx.fillText(formatKey(key), -6, keyToY(key, view));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const span = view.to - view.from;
  for (const time of timeTicks(view.from, view.to, Math.max(2, Math.floor(view.width / 110)))) {
    ctx.fillText(timeLabel(time, span), timeToX(time, view), view.height + 8);
  }
}

/**
 * Draws the map: a rectangle per segment (fills grouped by colour, outlines in one path, the
 * numbers where they fit), a line per epoch, and the axes. Ten thousand epochs draw in
 * milliseconds: nothing here is per pixel, and the lines are at most one per pixel.
 */
export function drawPicture(ctx: CanvasRenderingContext2D, picture: Picture): void {
  const { view, rects } = picture;
  ctx.save();
  ctx.translate(MARGIN.left, MARGIN.top);

  const byFill = new Map<string, Rect[]>();
  for (const rect of rects) {
    const fill = fillOf(picture, rect.number);
    const group = byFill.get(fill);
    if (group) group.push(rect);
    else byFill.set(fill, [rect]);
  }
  for (const [fill, group] of byFill) {
    ctx.fillStyle = fill;
    ctx.beginPath();
    for (const r of group) ctx.rect(r.x, r.y, r.w, r.h);
    ctx.fill();
  }

  ctx.strokeStyle = COLOURS.epoch;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const x of epochLines(picture.epochTimes, view)) {
    ctx.moveTo(x + 0.5, 0);
    ctx.lineTo(x + 0.5, view.height);
  }
  ctx.stroke();

  ctx.strokeStyle = COLOURS.stroke;
  ctx.beginPath();
  for (const r of rects) if (r.w >= 3) ctx.rect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  ctx.stroke();

  if (picture.selected?.size) {
    for (const r of rects) if (picture.selected.has(r.number)) hatch(ctx, r);
  }

  ctx.fillStyle = COLOURS.text;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const r of rects) {
    if (r.h < 14 || r.w < 12) continue;
    const label = String(r.number);
    if (r.w < label.length * 7 + 6) continue;
    ctx.fillText(label, r.x + r.w / 2, r.y + r.h / 2);
  }

  const focused = rects.find((r) => r.number === picture.focused);
  if (focused) {
    ctx.strokeStyle = COLOURS.text;
    ctx.lineWidth = picture.keyboard ? 3 : 2;
    ctx.strokeRect(focused.x + 1, focused.y + 1, Math.max(1, focused.w - 2), focused.h - 2);
  }

  drawAxes(ctx, view);
  ctx.restore();
}

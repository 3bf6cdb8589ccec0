import { pc } from './colours';

/** A segment as drawn: its number and key range. */
export interface DrawnSegment {
  number: number;
  keyStart: number;
  keyEnd: number;
}

/** One line of a drawing: what it shows, its segments, and which of them to mark as changed. */
export interface KeySpaceRow {
  label: string;
  segments: DrawnSegment[];
  changed?: ReadonlySet<number>;
}

const EDGE = '│';
const FILL = '─';
/** Changed segments (sealed before, opened after) are drawn with this, so it shows uncoloured. */
const CHANGED_FILL = '═';

/**
 * The key space [0, 1) as one line of `width` columns: an edge at each segment's start (and at
 * 1), its number in the middle when it fits, the rest filled. Bounds are rounded to columns, so
 * segments narrower than a column show as an edge only.
 */
export function keySpaceLine(
  segments: readonly DrawnSegment[],
  width: number,
  changed: ReadonlySet<number> = new Set(),
): string {
  const column = (key: number) => Math.round(key * width);
  const cells: string[] = Array.from({ length: width + 1 }, () => ' ');
  const marked = new Array<boolean>(width + 1).fill(false);
  for (const segment of [...segments].sort((a, b) => a.keyStart - b.keyStart)) {
    const [left, right] = [column(segment.keyStart), column(segment.keyEnd)];
    const fill = changed.has(segment.number) ? CHANGED_FILL : FILL;
    for (let c = left + 1; c < right; c++) {
      cells[c] = fill;
      marked[c] = changed.has(segment.number);
    }
    cells[left] = EDGE;
    cells[right] = EDGE;
    const label = String(segment.number);
    const room = right - left - 1;
    if (label.length <= room) {
      const at = left + 1 + Math.ceil((room - label.length) / 2);
      label.split('').forEach((ch, i) => (cells[at + i] = ch));
    }
  }
  return cells.map((cell, c) => (marked[c] ? pc.bold(pc.yellow(cell)) : cell)).join('');
}

/** Several lines over one axis, labels aligned: `before`, `after`, and 0 and 1 beneath. */
export function keySpaceDrawing(rows: readonly KeySpaceRow[], width: number): string {
  const pad = Math.max(...rows.map((row) => row.label.length)) + 1;
  const lines = rows.map(
    (row) => row.label.padEnd(pad) + keySpaceLine(row.segments, width, row.changed),
  );
  const axis = ' '.repeat(pad) + '0'.padEnd(width) + '1';
  return [...lines, axis].join('\n');
}

/** The drawing's width on this terminal: the line fits, between 20 and 100 columns. */
export const drawingWidth = (columns: number | undefined, labelWidth: number): number =>
  Math.max(20, Math.min(100, (columns ?? 80) - labelWidth - 2));

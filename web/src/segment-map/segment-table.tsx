import { useState } from 'preact/hooks';
import { formatKeyRange, formatNumbers, formatTime } from '../format/format';
import type { SegmentSpan } from './segment-history';

/** Rows a page of the table shows: a long history stays quick to show. */
export const TABLE_PAGE_ROWS = 100;

/**
 * The map's text alternative: the same segments, a row each, a hundred at a time; an active
 * segment is selected to scale here as on the map.
 */
export function SegmentTable({
  segments,
  labelledBy,
  endsAtNow,
  selectable,
  selected,
  onSelect,
}: {
  segments: readonly SegmentSpan[];
  labelledBy: string;
  endsAtNow: boolean;
  /** The segments that can be selected to scale (the active ones of a stream that can scale). */
  selectable: ReadonlySet<number>;
  selected: ReadonlySet<number>;
  onSelect: (number: number) => void;
}) {
  const [first, setFirst] = useState(0);
  const rows = segments.slice(first, first + TABLE_PAGE_ROWS);
  const last = Math.min(segments.length, first + TABLE_PAGE_ROWS);
  return (
    <>
      <table aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Segment</th>
            <th scope="col">Key range</th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            <th scope="col">Predecessors</th>
            <th scope="col">Successors</th>
            <th scope="col">Scale</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((span) => (
            <tr key={span.number}>
              <th scope="row">{span.number}</th>
              <td>{formatKeyRange(span.keyStart, span.keyEnd)}</td>
              <td>{formatTime(span.start)}</td>
              <td>
                {span.end !== undefined
                  ? formatTime(span.end)
                  : endsAtNow
                    ? 'active'
                    : 'after this window'}
              </td>
              <td>{formatNumbers(span.predecessors)}</td>
              <td>{formatNumbers(span.successors)}</td>
              <td>
                {selectable.has(span.number) && (
                  <input
                    type="checkbox"
                    aria-label={`Select segment ${span.number} to scale`}
                    checked={selected.has(span.number)}
                    onChange={() => onSelect(span.number)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {segments.length > TABLE_PAGE_ROWS && (
        <nav class="pager" aria-label="Rows of segments">
          <span>
            Segments {first + 1} to {last} of {segments.length}
          </span>
          <button
            type="button"
            disabled={first === 0}
            onClick={() => setFirst(Math.max(0, first - TABLE_PAGE_ROWS))}
          >
            Previous rows
          </button>
          <button
            type="button"
            disabled={last >= segments.length}
            onClick={() => setFirst(first + TABLE_PAGE_ROWS)}
          >
            Next rows
          </button>
        </nav>
      )}
    </>
  );
}

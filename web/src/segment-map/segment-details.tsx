import { read, api } from '../api/client';
import type { SegmentDetail } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { formatKeyRange, formatTime } from '../format/format';
import { useResource } from '../state/use-resource';
import { useSettled } from '../state/use-settled';
import type { SegmentSpan } from './segment-history';
import { theStream } from '../live/follows';

/**
 * Where a segment's details are read: its stream, and what was read already (kept while the
 * map shows the same data: a sealed segment's life no longer changes, an active one's changes
 * only with a scale, after which the map is read again).
 */
export interface DetailSource {
  scope: string;
  stream: string;
  /** Moves on with every change made here: what was read before is read again. */
  version: number;
  read: Map<number, SegmentDetail>;
}

/** `GET .../segments/{number}`, unless it was read already for this map. */
async function detailOf(source: DetailSource, number: number, signal: AbortSignal) {
  const known = source.read.get(number);
  if (known) return known;
  const detail = await read(
    api.GET('/v1/scopes/{scopeName}/streams/{streamName}/segments/{number}', {
      params: { path: { scopeName: source.scope, streamName: source.stream, number } },
      signal,
    }),
  );
  source.read.set(number, detail);
  return detail;
}

function Numbers({
  numbers,
  onGo,
}: {
  numbers: readonly number[];
  onGo: (number: number) => void;
}) {
  if (numbers.length === 0) return <>none</>;
  return (
    <>
      {numbers.map((number, index) => (
        <span key={number}>
          {index > 0 && ', '}
          <button type="button" class="link" onClick={() => onGo(number)}>
            {number}
          </button>
        </span>
      ))}
    </>
  );
}

const WAITING = '…';

/** How long the focus or the pointer stays on a segment before its details are read. */
const SETTLE_MS = 120;

/**
 * The segment under the pointer or in focus: number, key range and start as the map has them;
 * its end, epochs, predecessors and successors as the API answers for it
 * (`GET .../segments/{number}`), whatever window of time the map shows. Read out as it changes.
 */
export function SegmentDetails({
  span,
  source,
  onGo,
}: {
  span?: SegmentSpan;
  source: DetailSource;
  onGo: (number: number) => void;
}) {
  const number = span?.number;
  const settled = useSettled(number, SETTLE_MS);
  const detail = useResource(
    (signal) =>
      settled === undefined ? Promise.resolve(undefined) : detailOf(source, settled, signal),
    `${source.scope}/${source.stream}/${settled ?? ''}`,
    source.version,
    theStream(source.scope, source.stream),
  );
  // What was read already shows at once; the rest once the focus stays.
  const life =
    number === undefined
      ? undefined
      : (source.read.get(number) ?? (settled === number ? detail.data : undefined));
  return (
    <section
      id="segment-details"
      class="segment-details"
      aria-label="Segment in focus"
      aria-live="polite"
      aria-busy={span && !life ? true : undefined}
    >
      {span ? (
        <>
          <dl class="facts">
            <dt>Segment</dt>
            <dd>{span.number}</dd>
            <dt>Key range</dt>
            <dd>{formatKeyRange(span.keyStart, span.keyEnd)}</dd>
            <dt>Start</dt>
            <dd>{formatTime(span.start)}</dd>
            <dt>End</dt>
            <dd>
              {!life
                ? WAITING
                : life.sealedTime !== undefined
                  ? formatTime(life.sealedTime)
                  : 'active'}
            </dd>
            <dt>Epochs</dt>
            <dd>
              {!life
                ? WAITING
                : life.sealedInEpoch !== undefined
                  ? `opened in ${life.createdInEpoch}, sealed in ${life.sealedInEpoch}`
                  : `opened in ${life.createdInEpoch}`}
            </dd>
            <dt>Predecessors</dt>
            <dd>{life ? <Numbers numbers={life.predecessors} onGo={onGo} /> : WAITING}</dd>
            <dt>Successors</dt>
            <dd>{life ? <Numbers numbers={life.successors} onGo={onGo} /> : WAITING}</dd>
          </dl>
          {settled === number && <ErrorMessage error={detail.error} />}
        </>
      ) : (
        <p class="hint">
          Point at a segment, or focus the map and use the arrow keys, to see its details.
        </p>
      )}
    </section>
  );
}

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { isInternalStreamName } from '../api/names';
import type { SegmentDetail } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { Loading, Section } from '../components/screen';
import { navigate, useLocation, useQuery } from '../routing/router';
import { withQuery } from '../routing/routes';
import { ScaleControls } from '../scale/scale-controls';
import { useResource } from '../state/use-resource';
import { withActiveSegments } from './current-segments';
import { loadSegmentMap } from './load-segment-map';
import { SegmentCountChart } from './segment-count-chart';
import { segmentHistory } from './segment-history';
import { SegmentMap } from './segment-map';
import { SegmentTable } from './segment-table';
import { wholeHistory, windowOf } from './time-window';
import { TimeWindowControl } from './time-window-control';
import { theStream } from '../live/follows';

const NO_SEGMENTS: ReadonlySet<number> = new Set();

/** Why a stream cannot be scaled by hand, if it cannot. */
function cannotScale(stream: string, sealed: boolean): string | undefined {
  if (sealed) return 'The stream is sealed: it cannot be scaled.';
  if (isInternalStreamName(stream)) return 'An internal stream cannot be scaled by hand.';
  return undefined;
}

/**
 * The stream's history as a picture: the segment map of a window of time (the whole history
 * unless the address names one), the active segment count beneath, and the same segments as a
 * table on request. The history comes from the scaling events, the active segments from
 * `GET .../segments`; active segments selected on the map (or in the table) are scaled by hand.
 */
export function SegmentMapSection({
  scope,
  stream,
  createdAt,
  changes,
  sealed,
  onChanged,
}: {
  scope: string;
  stream: string;
  createdAt: number;
  changes: number;
  sealed: boolean;
  /** The stream was scaled here, or found changed: everything shown is read again. */
  onChanged: () => void;
}) {
  const query = useQuery();
  const { pathname } = useLocation();
  // "Now" is when the history was read: active segments run to it. A change made here reads
  // it again, up to a new now, under the same key: what is shown stays until then (a dialog
  // open on the map included).
  const now = useMemo(() => Date.now(), [changes]);
  // The window the address names, else the whole history (read from the start of time).
  const chosen = windowOf(query, now);
  const asTable = query.get('view') === 'table';

  const loaded = chosen ?? { from: 0, to: now };
  const reachesNow = loaded.to >= now;
  const records = useResource(
    (signal) => loadSegmentMap(scope, stream, loaded, reachesNow, signal),
    `${scope}/${stream}/${query.get('from')}/${query.get('to')}`,
    changes,
    theStream(scope, stream),
  );
  const data = records.data;
  const history = useMemo(
    () => data && withActiveSegments(segmentHistory(data.records), data.current),
    [data],
  );
  // Now is no earlier than the current epoch, whatever this machine's clock says.
  const shownNow = Math.max(now, history?.times[history.times.length - 1] ?? 0);
  const window = chosen ?? wholeHistory(history?.times ?? [], createdAt, shownNow);

  const active = useMemo(() => new Set(data?.current.map((s) => s.number)), [data]);
  const refusal = cannotScale(stream, sealed);
  const selectable = refusal ? NO_SEGMENTS : active;
  const [picked, setPicked] = useState<ReadonlySet<number>>(NO_SEGMENTS);
  // What was selected and is still active: a scale elsewhere may have sealed the rest.
  const selected = useMemo(
    () => new Set([...picked].filter((number) => selectable.has(number))),
    [picked, selectable],
  );
  const [note, setNote] = useState<string>();
  const select = (number: number) => {
    if (!selectable.has(number)) {
      setNote(refusal ?? `Segment ${number} is sealed: only active segments can be scaled.`);
      return;
    }
    setNote(undefined);
    const next = new Set(selected);
    if (!next.delete(number)) next.add(number);
    setPicked(next);
  };
  // The segments' details read since the last change made here: read again after one.
  const details = useMemo(
    () => ({ scope, stream, version: changes, read: new Map<number, SegmentDetail>() }),
    [scope, stream, changes],
  );

  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const toggle = () =>
    navigate(
      withQuery(pathname, { ...Object.fromEntries(query), view: asTable ? undefined : 'table' }),
      {
        replace: true,
      },
    );
  const label =
    `Segment map of ${scope}/${stream}: ${history?.segments.length ?? 0} segments over ` +
    `${history?.times.length ?? 0} epochs. Arrow keys move between segments; Space selects ` +
    'an active one to scale.';
  return (
    <Section title="Segments" id="segments-heading">
      <TimeWindowControl window={window} />
      <div class="actions">
        <button type="button" aria-pressed={asTable} onClick={toggle}>
          Show as table
        </button>
      </div>
      <ErrorMessage error={records.error} />
      {data && (
        <ScaleControls
          subject={{ scope, stream, current: data.current, etag: data.etag, selected }}
          cannotScale={refusal}
          note={note}
          onClear={() => {
            setNote(undefined);
            setPicked(NO_SEGMENTS);
          }}
          onScaled={() => {
            setPicked(NO_SEGMENTS);
            onChanged();
          }}
          onStale={onChanged}
        />
      )}
      <div ref={box}>
        {records.loading && !history && <Loading what="the scaling history" />}
        {history &&
          (asTable ? (
            <SegmentTable
              segments={history.segments}
              labelledBy="segments-heading"
              endsAtNow={window.to >= shownNow}
              selectable={selectable}
              selected={selected}
              onSelect={select}
            />
          ) : (
            <SegmentMap
              history={history}
              window={window}
              now={shownNow}
              label={label}
              active={active}
              selected={selected}
              onSelect={select}
              details={details}
            />
          ))}
        {history && (
          <SegmentCountChart
            times={history.times}
            counts={history.counts}
            window={window}
            width={width}
          />
        )}
      </div>
    </Section>
  );
}

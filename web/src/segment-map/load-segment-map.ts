import { answer, api } from '../api/client';
import type { ScaleMetadata, Segment } from '../api/types';
import { currentEpochTime, endsWithCurrent } from './current-segments';
import { loadScalingRecords } from './load-history';
import type { TimeWindow } from './time-window';

/** What the map shows: the scaling records of its window, and the segments active now. */
export interface SegmentMapData {
  records: ScaleMetadata[];
  /** The active segments as `GET .../segments` answers them, by keyStart. */
  current: Segment[];
  /** The stream's entity tag, read with `current`: a scale sends it in `If-Match`. */
  etag?: string;
}

/** Reads of both before the map shows what it has, should the stream keep scaling meanwhile. */
const ATTEMPTS = 3;

/**
 * The active segments (with the stream's entity tag), then the records of the window. A window
 * that reaches now is read up to the current epoch's time at least (should the service's clock
 * be ahead of this one), and must end with the current epoch: if the stream scaled between the
 * two reads, both are read again.
 */
export async function loadSegmentMap(
  scope: string,
  stream: string,
  window: TimeWindow,
  reachesNow: boolean,
  signal: AbortSignal,
): Promise<SegmentMapData> {
  for (let attempt = 1; ; attempt++) {
    const { data, response } = await answer(
      api.GET('/v1/scopes/{scopeName}/streams/{streamName}/segments', {
        params: { path: { scopeName: scope, streamName: stream } },
        signal,
      }),
    );
    const current = data.segments;
    const to = reachesNow ? Math.max(window.to, currentEpochTime(current)) : window.to;
    const records = await loadScalingRecords(scope, stream, { from: window.from, to }, signal);
    if (!reachesNow || attempt === ATTEMPTS || endsWithCurrent(records, current)) {
      return { records, current, etag: response.headers.get('ETag') ?? undefined };
    }
  }
}

import { api, read } from '../api/client';
import type { ScaleMetadata } from '../api/types';
import type { TimeWindow } from './time-window';

/** Records asked for at a time: ten thousand epochs are ten requests. */
export const HISTORY_PAGE_SIZE = 1000;

/**
 * A stream's scaling records of a window (the one active at its start, then every epoch begun
 * in it), page after page as the API hands them out.
 */
export async function loadScalingRecords(
  scope: string,
  stream: string,
  window: TimeWindow,
  signal: AbortSignal,
): Promise<ScaleMetadata[]> {
  const records: ScaleMetadata[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await read(
      api.GET('/v1/scopes/{scopeName}/streams/{streamName}/scaling-events', {
        params: {
          path: { scopeName: scope, streamName: stream },
          query: {
            from: window.from,
            to: window.to,
            limit: HISTORY_PAGE_SIZE,
            ...(continuationToken ? { continuationToken } : {}),
          },
        },
        signal,
      }),
    );
    records.push(...page.scalingEvents);
    continuationToken = page.continuationToken;
  } while (continuationToken);
  return records;
}

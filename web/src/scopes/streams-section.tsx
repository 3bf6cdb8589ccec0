import { useState } from 'preact/hooks';
import { api, read } from '../api/client';
import type { StreamProperty } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { CheckboxField, TextField } from '../components/field';
import { Pager, usePageToken } from '../components/pager';
import { Loading, Section } from '../components/screen';
import { Link, navigate, useLocation, useQuery } from '../routing/router';
import { pathOf, withQuery } from '../routing/routes';
import { useResource } from '../state/use-resource';
import { retentionSummary, scalingSummary } from '../streams/stream-summary';
import { StreamStateCell } from './stream-state-cell';
import { inScope } from '../live/follows';

/** Streams a page holds: one index range scan for the API, whatever the scope's size. */
export const STREAMS_PAGE_SIZE = 50;

type StreamsQuery = {
  scopeName: string;
  limit: number;
  continuationToken?: string;
  filter_type?: 'tag' | 'showInternalStreams';
  filter_value?: string;
};

/** What the address asks to list: a tag, or the internal streams (the API takes one filter). */
function listQuery(scope: string, query: URLSearchParams, token: string | undefined) {
  const tag = query.get('tag') ?? '';
  const internal = query.get('internal') === 'true';
  const params: StreamsQuery = { scopeName: scope, limit: STREAMS_PAGE_SIZE };
  if (token) params.continuationToken = token;
  if (internal) {
    params.filter_type = 'showInternalStreams';
    params.filter_value = 'true';
  } else if (tag) {
    params.filter_type = 'tag';
    params.filter_value = tag;
  }
  return { tag, internal, params };
}

/**
 * A scope's streams, a page at a time as the API hands them out, by tag or the internal ones;
 * each row's state is read for the rows shown only.
 */
export function StreamsSection({ scope, changes }: { scope: string; changes: number }) {
  const query = useQuery();
  const token = usePageToken('page');
  const { tag, internal, params } = listQuery(scope, query, token);
  const { scopeName, ...page } = params;
  const streams = useResource(
    (signal) =>
      read(
        api.GET('/v1/scopes/{scopeName}/streams', {
          params: { path: { scopeName }, query: page },
          signal,
        }),
      ),
    JSON.stringify(params),
    changes,
    inScope(scope, 'stream'),
  );
  return (
    <Section title="Streams" id="streams-heading">
      <StreamFilters tag={tag} internal={internal} />
      <ErrorMessage error={streams.error} />
      {streams.loading && !streams.data && <Loading what="streams" />}
      {streams.data && (
        <>
          <table aria-labelledby="streams-heading">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scaling policy</th>
                <th scope="col">Retention</th>
                <th scope="col">Tags</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {streams.data.streams.map((stream) => (
                <StreamRow
                  key={stream.streamName}
                  scope={scope}
                  stream={stream}
                  changes={changes}
                />
              ))}
            </tbody>
          </table>
          {streams.data.streams.length === 0 && (
            <p>{tag || internal ? 'No stream matches.' : 'This scope has no streams yet.'}</p>
          )}
          <Pager next={streams.data.continuationToken} label="streams" param="page" />
        </>
      )}
    </Section>
  );
}

function StreamRow({
  scope,
  stream,
  changes,
}: {
  scope: string;
  stream: StreamProperty;
  changes: number;
}) {
  return (
    <tr>
      <th scope="row">
        <Link href={pathOf({ screen: 'stream', scope, stream: stream.streamName })}>
          {stream.streamName}
        </Link>
      </th>
      <td>{scalingSummary(stream.scalingPolicy)}</td>
      <td>{retentionSummary(stream.retentionPolicy)}</td>
      <td>{stream.tags.join(', ')}</td>
      <td>
        <StreamStateCell scope={scope} stream={stream.streamName} changes={changes} />
      </td>
    </tr>
  );
}

/** The tag filter and the internal streams switch; both live in the address. */
function StreamFilters({ tag, internal }: { tag: string; internal: boolean }) {
  const { pathname } = useLocation();
  const [text, setText] = useState(tag);
  // A new filter starts at the first page.
  const go = (next: { tag?: string; internal?: string }) =>
    navigate(
      withQuery(pathname, {
        tag: tag || undefined,
        internal: internal ? 'true' : undefined,
        ...next,
      }),
    );
  return (
    <form
      role="search"
      aria-label="Filter streams"
      class="filter"
      onSubmit={(event) => {
        event.preventDefault();
        go({ tag: text });
      }}
    >
      <TextField
        label="Tag"
        type="search"
        value={text}
        onValue={setText}
        disabled={internal}
        hint={internal ? 'Internal streams are listed without a tag filter' : undefined}
      />
      <button type="submit" disabled={internal}>
        Filter by tag
      </button>
      <CheckboxField
        label="Show internal streams"
        checked={internal}
        onChecked={(checked) => go({ internal: checked ? 'true' : undefined })}
      />
    </form>
  );
}

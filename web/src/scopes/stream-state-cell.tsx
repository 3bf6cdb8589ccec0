import { api, read } from '../api/client';
import { useResource } from '../state/use-resource';
import { theStream } from '../live/follows';

/** A listed stream's state, read for this row alone (only the rows shown are asked about). */
export function StreamStateCell({
  scope,
  stream,
  changes,
}: {
  scope: string;
  stream: string;
  changes: number;
}) {
  const description = useResource(
    (signal) =>
      read(
        api.GET('/v1/scopes/{scopeName}/streams/{streamName}/description', {
          params: { path: { scopeName: scope, streamName: stream } },
          signal,
        }),
      ),
    `${scope}/${stream}`,
    changes,
    theStream(scope, stream),
  );
  if (description.data)
    return <span class={`state ${description.data.state}`}>{description.data.state}</span>;
  if (description.error) return <span title={description.error.message}>unknown</span>;
  return <span class="pending">…</span>;
}

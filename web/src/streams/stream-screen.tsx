import { useState } from 'preact/hooks';
import { answer, api } from '../api/client';
import { ErrorMessage } from '../components/error-message';
import { scalesByLoad } from '../load-scales/load-scale-words';
import { LoadScalesSection } from '../load-scales/load-scales-section';
import { Loading, Screen } from '../components/screen';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useResource } from '../state/use-resource';
import { SegmentMapSection } from '../segment-map/segment-map-section';
import { StreamActions } from './stream-actions';
import { StreamConfigSection } from './stream-config-section';
import { StreamDescriptionSection } from './stream-description-section';
import { theStream } from '../live/follows';

/** A stream: what describing it answers, its configuration to edit, its segments over time. */
export function StreamScreen({ scope, stream }: { scope: string; stream: string }) {
  // Counts the changes made here (a save, a seal): the description is read again after each.
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((n) => n + 1);
  const described = useResource(
    async (signal) => {
      const { data, response } = await answer(
        api.GET('/v1/scopes/{scopeName}/streams/{streamName}/description', {
          params: { path: { scopeName: scope, streamName: stream } },
          signal,
        }),
      );
      return { description: data, etag: response.headers.get('ETag') ?? undefined };
    },
    `${scope}/${stream}`,
    changes,
    theStream(scope, stream),
  );
  const description = described.data?.description;
  return (
    <Screen title={stream} kind="Stream">
      <p class="trail">
        <Link href={pathOf({ screen: 'scopes' })}>Scopes</Link> /{' '}
        <Link href={pathOf({ screen: 'scope', scope })}>{scope}</Link> / {stream}
      </p>
      <ErrorMessage error={described.error} />
      {described.loading && !described.data && <Loading what="the stream" />}
      {description && (
        <>
          <StreamActions
            scope={scope}
            stream={stream}
            state={description.state}
            onChanged={changed}
          />
          <StreamDescriptionSection description={description} />
          {scalesByLoad(description.configuration.scalingPolicy) && (
            <LoadScalesSection scope={scope} stream={stream} />
          )}
          <SegmentMapSection
            scope={scope}
            stream={stream}
            createdAt={description.createdAt}
            changes={changes}
            sealed={description.state === 'SEALED'}
            onChanged={changed}
          />
          <StreamConfigSection
            scope={scope}
            stream={stream}
            configuration={description.configuration}
            etag={described.data?.etag}
            sealed={description.state === 'SEALED'}
            onSaved={changed}
          />
        </>
      )}
    </Screen>
  );
}

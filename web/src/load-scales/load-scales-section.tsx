import { api, read } from '../api/client';
import type { LoadScale } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { Loading, Section } from '../components/screen';
import { formatNumbers, formatTime } from '../format/format';
import { loadScalesOf } from '../live/follows';
import { useResource } from '../state/use-resource';
import { loadScaleWords } from './load-scale-words';

/**
 * A stream's recent scales by load (docs/extensions.md section 11), newest first, each with the
 * rule that made it; read again when the change feed tells of a new one.
 */
export function LoadScalesSection({ scope, stream }: { scope: string; stream: string }) {
  const scales = useResource(
    (signal) =>
      read(
        api.GET('/v1/scopes/{scopeName}/streams/{streamName}/load', {
          params: { path: { scopeName: scope, streamName: stream } },
          signal,
        }),
      ),
    `${scope}/${stream}`,
    0,
    loadScalesOf(scope, stream),
  );
  const listed = scales.data?.scales;
  return (
    <Section title="Automatic scales" id="load-scales-heading">
      <ErrorMessage error={scales.error} />
      {scales.loading && !listed && <Loading what="the automatic scales" />}
      {listed && listed.length === 0 && <p>No automatic scales yet</p>}
      {listed && listed.length > 0 && (
        <table aria-labelledby="load-scales-heading">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Epoch</th>
              <th scope="col">Scale</th>
              <th scope="col">Sealed</th>
              <th scope="col">Opened</th>
              <th scope="col">Reported by</th>
            </tr>
          </thead>
          <tbody>
            {listed.map((scale) => (
              <LoadScaleRow key={`${scale.epoch}`} scale={scale} />
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function LoadScaleRow({ scale }: { scale: LoadScale }) {
  return (
    <tr>
      <td>{formatTime(scale.at)}</td>
      <td>{scale.epoch}</td>
      <td>{loadScaleWords(scale)}</td>
      <td>{formatNumbers(scale.sealedSegments)}</td>
      <td>{formatNumbers(scale.newSegments.map((s) => s.number))}</td>
      <td>{scale.principal}</td>
    </tr>
  );
}

import { api, read } from '../api/client';
import type { HealthResult } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { Loading, Screen, Section } from '../components/screen';
import { useResource } from '../state/use-resource';

function Contributor({ name, result }: { name: string; result: HealthResult }) {
  const children = Object.entries(result.children ?? {});
  const details = Object.entries(result.details ?? {});
  return (
    <li>
      <span class="contributor">{result.name ?? name}</span>{' '}
      <span class={`status ${result.status ?? 'UNKNOWN'}`}>{result.status ?? 'UNKNOWN'}</span>
      {details.length > 0 && (
        <ul class="details">
          {details.map(([key, value]) => (
            <li key={key}>
              {key}: {String(value)}
            </li>
          ))}
        </ul>
      )}
      {children.length > 0 && (
        <ul>
          {children.map(([child, childResult]) => (
            <Contributor key={child} name={child} result={childResult} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The health tree with each contributor's status, and the service's readiness and liveness. */
export function HealthScreen() {
  const health = useResource(async (signal) => {
    const [tree, readiness, liveness] = await Promise.all([
      read(api.GET('/v1/health', { signal })),
      read(api.GET('/v1/health/readiness', { signal })),
      read(api.GET('/v1/health/liveness', { signal })),
    ]);
    return { tree, readiness, liveness };
  }, 'health');
  return (
    <Screen title="Health">
      <div class="actions">
        <button type="button" onClick={health.reload} disabled={health.loading}>
          Refresh
        </button>
      </div>
      <ErrorMessage error={health.error} />
      {health.loading && !health.data && <Loading what="the health" />}
      {health.data && (
        <>
          <dl class="facts">
            <dt>Ready</dt>
            <dd>
              {health.data.readiness ? 'yes' : 'no'} ({health.data.tree.status ?? 'UNKNOWN'})
            </dd>
            <dt>Alive</dt>
            <dd>{health.data.liveness ? 'yes' : 'no'}</dd>
          </dl>
          <Section title="Contributors" id="contributors-heading">
            <ul class="health-tree">
              <Contributor name="tributary" result={health.data.tree} />
            </ul>
          </Section>
        </>
      )}
    </Screen>
  );
}

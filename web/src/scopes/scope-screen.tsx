import { useState } from 'preact/hooks';
import { api, read } from '../api/client';
import { ErrorMessage } from '../components/error-message';
import { Loading, Screen } from '../components/screen';
import { Link, navigate } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useResource } from '../state/use-resource';
import { CreateReaderGroupForm } from './create-reader-group-form';
import { CreateStreamForm } from './create-stream-form';
import { DeleteScopeButton } from './delete-scope-button';
import { loadCompliance, loadPolicy } from './load-policy';
import { PolicySection } from './policy-section';
import { ReaderGroupsSection } from './reader-groups-section';
import { StreamsSection } from './streams-section';
import { inScope, theScope } from '../live/follows';

/**
 * One scope: its policy, its streams and reader groups, a page at a time; create either; delete
 * it.
 */
export function ScopeScreen({ scope }: { scope: string }) {
  const found = useResource(
    (signal) =>
      read(api.GET('/v1/scopes/{scopeName}', { params: { path: { scopeName: scope } }, signal })),
    scope,
    0,
    theScope(scope),
  );
  const policy = useResource((signal) => loadPolicy(scope, signal), scope, 0, theScope(scope));
  // Counts the changes made here: the lists read again after each.
  const [changes, setChanges] = useState(0);
  // How the scope stands against its policy: read again with the policy, and after any change
  // of its streams (made here or elsewhere).
  const policyRead = policy.data;
  const compliance = useResource(
    (signal) => loadCompliance(scope, policyRead?.policy, signal),
    `${scope}/${policyRead?.etag ?? ''}`,
    changes,
    inScope(scope, 'stream'),
  );
  const changed = () => setChanges((n) => n + 1);
  return (
    <Screen title={scope} kind="Scope">
      <p class="trail">
        <Link href={pathOf({ screen: 'scopes' })}>Scopes</Link> / {scope}
      </p>
      <ErrorMessage error={found.error} />
      {found.loading && !found.data && <Loading what="the scope" />}
      {found.data && (
        <>
          <div class="actions">
            <DeleteScopeButton
              scope={scope}
              onDeleted={() => navigate(pathOf({ screen: 'scopes' }))}
            />
          </div>
          <ErrorMessage error={policy.error} />
          {policy.data && (
            <PolicySection
              scope={scope}
              policy={policy.data.policy}
              etag={policy.data.etag}
              compliance={compliance.data}
              onChanged={policy.reload}
            />
          )}
          <StreamsSection scope={scope} changes={changes} />
          <ReaderGroupsSection scope={scope} changes={changes} />
          <CreateStreamForm scope={scope} policy={policy.data?.policy} onCreated={changed} />
          <CreateReaderGroupForm scope={scope} onCreated={changed} />
        </>
      )}
    </Screen>
  );
}

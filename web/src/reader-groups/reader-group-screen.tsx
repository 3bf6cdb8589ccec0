import { useState } from 'preact/hooks';
import { answer, api } from '../api/client';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorMessage } from '../components/error-message';
import { TextField } from '../components/field';
import { Loading, Screen, Section } from '../components/screen';
import { Link, navigate } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useAction } from '../state/use-action';
import { useResource } from '../state/use-resource';
import { theReaderGroup } from '../live/follows';

/** A reader group: the streams it reads, its readers online; readers online and offline; delete. */
export function ReaderGroupScreen({ scope, group }: { scope: string; group: string }) {
  const [changes, setChanges] = useState(0);
  const path = { scopeName: scope, readerGroupName: group };
  const found = useResource(
    (signal) =>
      answer(
        api.GET('/v1/scopes/{scopeName}/readergroups/{readerGroupName}', {
          params: { path },
          signal,
        }),
      ).then(({ data }) => data),
    `${scope}/${group}`,
    changes,
    theReaderGroup(scope, group),
  );
  const action = useAction();
  const changed = () => setChanges((n) => n + 1);
  const remove = async () => {
    const done = await action.run(() =>
      answer(
        api.DELETE('/v1/scopes/{scopeName}/readergroups/{readerGroupName}', { params: { path } }),
      ),
    );
    if (done) navigate(pathOf({ screen: 'scope', scope }));
  };
  const offline = async (reader: string) => {
    const done = await action.run(() =>
      answer(
        api.DELETE('/v1/scopes/{scopeName}/readergroups/{readerGroupName}/readers/{readerId}', {
          params: { path: { ...path, readerId: reader } },
        }),
      ),
    );
    if (done) changed();
  };
  return (
    <Screen title={group} kind="Reader group">
      <p class="trail">
        <Link href={pathOf({ screen: 'scopes' })}>Scopes</Link> /{' '}
        <Link href={pathOf({ screen: 'scope', scope })}>{scope}</Link> / {group}
      </p>
      <ErrorMessage error={found.error} />
      {found.loading && !found.data && <Loading what="the reader group" />}
      {found.data && (
        <>
          <div class="actions">
            <ConfirmButton
              label="Delete reader group"
              question={`Delete reader group ${group}? This cannot be undone.`}
              onConfirm={() => void remove()}
              disabled={action.busy}
            />
          </div>
          <ErrorMessage error={action.error} />
          <Section title="Streams read" id="streams-read-heading">
            <ul>
              {found.data.streamList.map((scoped) => {
                const [streamScope, stream] = scoped.split('/');
                return (
                  <li key={scoped}>
                    <Link href={pathOf({ screen: 'stream', scope: streamScope, stream })}>
                      {scoped}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </Section>
          <Section title="Readers" id="readers-heading">
            <table aria-labelledby="readers-heading">
              <thead>
                <tr>
                  <th scope="col">Reader</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {found.data.onlineReaderIds.map((reader) => (
                  <tr key={reader}>
                    <th scope="row">{reader}</th>
                    <td>
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => void offline(reader)}
                      >
                        Set offline
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {found.data.onlineReaderIds.length === 0 && <p>No reader is online.</p>}
            <ReaderOnlineForm scope={scope} group={group} onDone={changed} />
          </Section>
        </>
      )}
    </Screen>
  );
}

function ReaderOnlineForm({
  scope,
  group,
  onDone,
}: {
  scope: string;
  group: string;
  onDone: () => void;
}) {
  const [reader, setReader] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(() =>
      answer(
        api.PUT('/v1/scopes/{scopeName}/readergroups/{readerGroupName}/readers/{readerId}', {
          params: { path: { scopeName: scope, readerGroupName: group, readerId: reader } },
        }),
      ),
    );
    if (done) {
      setReader('');
      onDone();
    }
  };
  return (
    <form class="inline-form" onSubmit={(event) => void submit(event)}>
      <TextField label="Reader ID" value={reader} onValue={setReader} required />
      <button type="submit" disabled={action.busy || !reader}>
        Set online
      </button>
      <ErrorMessage error={action.error} />
    </form>
  );
}

import { api, read } from '../api/client';
import { ErrorMessage } from '../components/error-message';
import { Pager, usePageToken } from '../components/pager';
import { Loading, Section } from '../components/screen';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { useResource } from '../state/use-resource';
import { inScope, theReaderGroup } from '../live/follows';

export const READER_GROUPS_PAGE_SIZE = 20;

/** A scope's reader groups, a page at a time; each row's details read for the rows shown. */
export function ReaderGroupsSection({ scope, changes }: { scope: string; changes: number }) {
  const token = usePageToken('groups');
  const groups = useResource(
    (signal) =>
      read(
        api.GET('/v1/scopes/{scopeName}/readergroups', {
          params: {
            path: { scopeName: scope },
            query: { limit: READER_GROUPS_PAGE_SIZE, continuationToken: token },
          },
          signal,
        }),
      ),
    JSON.stringify([scope, token]),
    changes,
    inScope(scope, 'readerGroup'),
  );
  return (
    <Section title="Reader groups" id="reader-groups-heading">
      <ErrorMessage error={groups.error} />
      {groups.loading && !groups.data && <Loading what="reader groups" />}
      {groups.data && (
        <>
          <table aria-labelledby="reader-groups-heading">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Streams read</th>
                <th scope="col">Readers online</th>
              </tr>
            </thead>
            <tbody>
              {groups.data.readerGroups.map(({ readerGroupName }) => (
                <ReaderGroupRow
                  key={readerGroupName}
                  scope={scope}
                  group={readerGroupName!}
                  changes={changes}
                />
              ))}
            </tbody>
          </table>
          {groups.data.readerGroups.length === 0 && <p>This scope has no reader groups.</p>}
          <Pager next={groups.data.continuationToken} label="reader groups" param="groups" />
        </>
      )}
    </Section>
  );
}

function ReaderGroupRow({
  scope,
  group,
  changes,
}: {
  scope: string;
  group: string;
  changes: number;
}) {
  const details = useResource(
    (signal) =>
      read(
        api.GET('/v1/scopes/{scopeName}/readergroups/{readerGroupName}', {
          params: { path: { scopeName: scope, readerGroupName: group } },
          signal,
        }),
      ),
    `${scope}/${group}`,
    changes,
    theReaderGroup(scope, group),
  );
  return (
    <tr>
      <th scope="row">
        <Link href={pathOf({ screen: 'readerGroup', scope, group })}>{group}</Link>
      </th>
      <td>{details.data ? details.data.streamList.join(', ') : '…'}</td>
      <td>{details.data ? details.data.onlineReaderIds.length : '…'}</td>
    </tr>
  );
}

import { useState } from 'preact/hooks';
import { api, read } from '../api/client';
import { ErrorMessage } from '../components/error-message';
import { TextField } from '../components/field';
import { Pager, usePageToken } from '../components/pager';
import { Loading, Screen } from '../components/screen';
import { Link, navigate, useLocation, useQuery } from '../routing/router';
import { pathOf, withQuery } from '../routing/routes';
import { useResource } from '../state/use-resource';
import { CreateScopeForm } from './create-scope-form';
import { DeleteScopeButton } from './delete-scope-button';
import { scopeEvents } from '../live/follows';

/** Scopes a page holds: the API is asked for pages, never for the whole list. */
export const SCOPES_PAGE_SIZE = 50;

/** The scopes, a page at a time, with a filter on the page's names; create and delete. */
export function ScopesScreen() {
  const token = usePageToken('page');
  const filter = useQuery().get('filter') ?? '';
  const scopes = useResource(
    (signal) =>
      read(
        api.GET('/v1/scopes', {
          params: { query: { limit: SCOPES_PAGE_SIZE, continuationToken: token } },
          signal,
        }),
      ),
    token ?? '',
    0,
    scopeEvents,
  );
  const shown = (scopes.data?.scopes ?? []).filter(({ scopeName }) =>
    (scopeName ?? '').toLowerCase().includes(filter.toLowerCase()),
  );
  return (
    <Screen title="Scopes" headingId="scopes-heading">
      <CreateScopeForm onCreated={scopes.reload} />
      <FilterBox value={filter} />
      <ErrorMessage error={scopes.error} />
      {scopes.loading && !scopes.data && <Loading what="scopes" />}
      {scopes.data && (
        <>
          <p class="count" role="status">
            {filter
              ? `${shown.length} of the ${scopes.data.scopes.length} scopes of this page match “${filter}”.`
              : `${scopes.data.scopes.length} scopes on this page.`}
          </p>
          <table aria-labelledby="scopes-heading">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map(({ scopeName }) => (
                <tr key={scopeName}>
                  <th scope="row">
                    <Link href={pathOf({ screen: 'scope', scope: scopeName })}>{scopeName}</Link>
                  </th>
                  <td>
                    <DeleteScopeButton scope={scopeName} onDeleted={scopes.reload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager next={scopes.data.continuationToken} label="scopes" param="page" />
        </>
      )}
    </Screen>
  );
}

/**
 * Narrows the page shown to the names that contain the text (the API lists scopes by name and
 * pages, with no filter of its own); the filter is in the address.
 */
function FilterBox({ value }: { value: string }) {
  const { pathname } = useLocation();
  const query = useQuery();
  const [text, setText] = useState(value);
  return (
    <form
      role="search"
      class="filter"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(withQuery(pathname, { ...Object.fromEntries(query), filter: text }), {
          replace: true,
          state: window.history.state,
        });
      }}
    >
      <TextField label="Filter" type="search" value={text} onValue={setText} />
      <button type="submit">Filter</button>
    </form>
  );
}

import { useState } from 'preact/hooks';
import { api, read } from '../api/client';
import type { AuditEvent } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { TextField } from '../components/field';
import { Pager, usePageToken } from '../components/pager';
import { Loading, Screen } from '../components/screen';
import { formatTime } from '../format/format';
import { Link, navigate, useLocation, useQuery } from '../routing/router';
import { pathOf, routeOfResource, withQuery } from '../routing/routes';
import { fromLocalInput, toLocalInput } from '../segment-map/time-window';
import { useResource } from '../state/use-resource';
import { everything } from '../live/follows';

export const AUDIT_PAGE_SIZE = 50;

const whole = (value: string | null): number | undefined =>
  value !== null && /^\d+$/.test(value) ? Number(value) : undefined;

/**
 * The audit trail, newest first, a page at a time: filtered by resource, principal and time
 * window (all in the address, so a search can be linked).
 */
export function AuditScreen() {
  const query = useQuery();
  const token = usePageToken('page');
  const filter = {
    resource: query.get('resource') || undefined,
    principal: query.get('principal') || undefined,
    from: whole(query.get('from')),
    to: whole(query.get('to')),
  };
  const events = useResource(
    (signal) =>
      read(
        api.GET('/v1/audit', {
          params: { query: { ...filter, limit: AUDIT_PAGE_SIZE, continuationToken: token } },
          signal,
        }),
      ),
    JSON.stringify([filter, token]),
    0,
    everything,
  );
  return (
    <Screen title="Audit">
      <AuditFilters filter={filter} />
      <ErrorMessage error={events.error} />
      {events.loading && !events.data && <Loading what="audit events" />}
      {events.data && (
        <section aria-labelledby="audit-events-heading">
          <h2 id="audit-events-heading">Audit events</h2>
          <table aria-labelledby="audit-events-heading">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Principal</th>
                <th scope="col">Operation</th>
                <th scope="col">Resource</th>
                <th scope="col">Outcome</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {events.data.auditEvents.map((event) => (
                <AuditRow key={event.id} event={event} />
              ))}
            </tbody>
          </table>
          {events.data.auditEvents.length === 0 && <p>No event matches.</p>}
          <Pager next={events.data.continuationToken} label="audit events" param="page" />
        </section>
      )}
    </Screen>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  const route = routeOfResource(event.resource);
  return (
    <tr>
      <td>{formatTime(event.time)}</td>
      <td>{event.principal}</td>
      <td>{event.operation}</td>
      <td>
        {route && route.screen !== 'notFound' ? (
          <Link href={pathOf(route)}>{event.resource}</Link>
        ) : (
          event.resource
        )}
      </td>
      <td>{event.outcome}</td>
      <td>
        {(event.before || event.after) && (
          <details>
            <summary>Before and after</summary>
            <pre>{JSON.stringify({ before: event.before, after: event.after }, null, 2)}</pre>
          </details>
        )}
      </td>
    </tr>
  );
}

function AuditFilters({
  filter,
}: {
  filter: { resource?: string; principal?: string; from?: number; to?: number };
}) {
  const { pathname } = useLocation();
  const [resource, setResource] = useState(filter.resource ?? '');
  const [principal, setPrincipal] = useState(filter.principal ?? '');
  const [from, setFrom] = useState(filter.from ? toLocalInput(filter.from) : '');
  const [to, setTo] = useState(filter.to ? toLocalInput(filter.to) : '');
  const submit = (event: Event) => {
    event.preventDefault();
    const end = fromLocalInput(to);
    navigate(
      withQuery(pathname, {
        resource,
        principal,
        from: String(fromLocalInput(from) ?? ''),
        // The end's second is included.
        to: end === undefined ? undefined : String(end + 999),
      }),
    );
  };
  return (
    <form role="search" aria-label="Filter audit events" class="filter" onSubmit={submit}>
      <TextField
        label="Resource"
        value={resource}
        onValue={setResource}
        hint="As in ACLs: prn::/scope:sales/stream:orders"
      />
      <TextField label="Principal" value={principal} onValue={setPrincipal} />
      <TextField label="From" type="datetime-local" step={1} value={from} onValue={setFrom} />
      <TextField label="To" type="datetime-local" step={1} value={to} onValue={setTo} />
      <button type="submit">Filter</button>
    </form>
  );
}

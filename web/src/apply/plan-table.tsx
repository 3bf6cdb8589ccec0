import type { ApplyChange, ApplyResult } from '../api/types';
import { Link } from '../routing/router';
import { pathOf, routeOfResource } from '../routing/routes';
import { ACTION_MARKS, diffValue } from './apply-document';

function Resource({ change }: { change: ApplyChange }) {
  const route = change.action === 'delete' ? undefined : routeOfResource(change.resource);
  return route && route.screen !== 'notFound' ? (
    <Link href={pathOf(route)}>{change.resource}</Link>
  ) : (
    <>{change.resource}</>
  );
}

/** A plan (or what was applied) as a diff: a row per resource, each changed field before and after. */
export function PlanTable({ result, heading }: { result: ApplyResult; heading: string }) {
  const { summary } = result;
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">{heading}</h2>
      <p>
        {summary.create} to create, {summary.update} to update, {summary.delete} to delete,{' '}
        {summary.unchanged} unchanged{result.dryRun ? ' (a plan: nothing changed yet)' : ''}.
      </p>
      <table aria-labelledby="plan-heading" class="plan">
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Kind</th>
            <th scope="col">Resource</th>
            <th scope="col">Fields</th>
          </tr>
        </thead>
        <tbody>
          {result.changes.map((change) => (
            <tr key={change.resource} class={`action-${change.action}`}>
              <td>
                <span aria-hidden="true">{ACTION_MARKS[change.action]} </span>
                {change.action}
              </td>
              <td>{change.kind}</td>
              <td>
                <Resource change={change} />
              </td>
              <td>
                {change.diff?.length ? (
                  <ul class="diff">
                    {change.diff.map(({ path, before, after }) => (
                      <li key={path}>
                        <code>{path}</code>: <del>{diffValue(before)}</del> →{' '}
                        <ins>{diffValue(after)}</ins>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

import type { ApplyChange, ApplyResult, PolicyViolation } from '../api/types';
import { Link } from '../routing/router';
import { pathOf, routeOfResource } from '../routing/routes';
import { ACTION_MARKS, diffValue, kindWords, violationWords } from './apply-document';

function Resource({ change }: { change: ApplyChange }) {
  const route = change.action === 'delete' ? undefined : routeOfResource(change.resource);
  return route && route.screen !== 'notFound' ? (
    <Link href={pathOf(route)}>{change.resource}</Link>
  ) : (
    <>{change.resource}</>
  );
}

/** The rules of scopes' policies a plan breaks (a dry run's), or that refused an apply (a 422's). */
export function PolicyViolations({
  violations,
}: {
  violations?: readonly Pick<PolicyViolation, 'rule' | 'detail' | 'resource'>[];
}) {
  if (!violations?.length) return null;
  return (
    <ul class="errors" aria-label="Rules of scope policies the document breaks">
      {violations.map((violation, i) => (
        <li key={i}>{violationWords(violation)}</li>
      ))}
    </ul>
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
            // A scope and its policy share a resource.
            <tr key={`${change.kind} ${change.resource}`} class={`action-${change.action}`}>
              <td>
                <span aria-hidden="true">{ACTION_MARKS[change.action]} </span>
                {change.action}
              </td>
              <td>{kindWords(change.kind)}</td>
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

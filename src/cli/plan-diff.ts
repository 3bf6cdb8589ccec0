import { pc } from './colours';
import type { ApplyAnswer } from '../apply/plan-answer';
import type { Change, ChangeAction, FieldDiff } from '../apply/planned-change';
import type { RuleViolation } from '../common/domain-error';

const MARK: Record<ChangeAction, string> = {
  create: '+',
  update: '~',
  delete: '-',
  unchanged: '=',
};
const COLOUR: Record<ChangeAction, (text: string) => string> = {
  create: pc.green,
  update: pc.yellow,
  delete: pc.red,
  unchanged: pc.dim,
};

const shown = (value: unknown): string =>
  value === undefined ? '(absent)' : JSON.stringify(value);

function fieldLine(diff: FieldDiff): string {
  return `      ${diff.path}: ${pc.red(shown(diff.before))} -> ${pc.green(shown(diff.after))}`;
}

function changeLines(change: Change): string[] {
  const paint = COLOUR[change.action];
  // `scopePolicy`, the longest kind, sets the column's width.
  const head = paint(
    `  ${MARK[change.action]} ${change.action.padEnd(9)} ${change.kind.padEnd(11)} ${change.resource}`,
  );
  return [head, ...(change.diff ?? []).map(fieldLine)];
}

/** A broken rule of a scope's policy in one line: what it concerns, the rule, why. */
export const violationLine = (v: RuleViolation): string =>
  `${v.resource ? `${v.resource}: ` : ''}${v.rule}: ${v.detail}`;

/** The total of changes that are not `unchanged`. */
export const changeCount = (answer: ApplyAnswer): number =>
  answer.summary.create + answer.summary.update + answer.summary.delete;

/** A plan as a readable diff: one line per change, one per changed field, then the summary. */
export function formatPlan(answer: ApplyAnswer): string {
  const lines = answer.changes.flatMap(changeLines);
  const { create, update, delete: remove, unchanged } = answer.summary;
  lines.push(
    '',
    answer.applied
      ? `Applied: ${create} created, ${update} updated, ${remove} deleted, ${unchanged} unchanged.`
      : `Plan: ${create} to create, ${update} to update, ${remove} to delete, ${unchanged} unchanged.`,
  );
  for (const c of answer.conflicts ?? [])
    lines.push(pc.red(`Conflict: ${c.resource}: ${c.message}`));
  // A dry run's: the apply itself would be refused (422) until the document complies.
  for (const v of answer.violations ?? [])
    lines.push(pc.red(`Policy violation: ${violationLine(v)}`));
  return lines.join('\n');
}

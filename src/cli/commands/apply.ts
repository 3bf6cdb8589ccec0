import { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import type { ApplyDocument } from '../../apply/desired-state';
import { call } from '../client';
import { readDocument } from '../document-file';
import { CliError, exitCodeOf, usageError } from '../exit-codes';
import { changeCount, formatPlan, violationLine } from '../plan-diff';
import { action } from './action';

async function confirmed(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^(y|yes)$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

export function applyCommand(): Command {
  return new Command('apply')
    .description('make the service match a YAML or JSON document, in one transaction')
    .requiredOption('-f, --file <file>', 'the document (`-` reads stdin)')
    .option('--dry-run', 'show the plan and change nothing')
    .option('--prune', 'also delete, inside each listed scope, what the document does not list')
    .option('--yes', 'apply without asking')
    .action(
      action(async (ctx, _args, options) => {
        const document = readDocument<ApplyDocument>(options.file as string);
        if (options.prune && typeof document === 'object' && document !== null)
          document.prune = true;
        const planned = await call(
          ctx.url,
          ctx.api.POST('/v1/apply', { params: { query: { dryRun: true } }, body: document }),
        );
        const plan = planned.data;
        if (options.dryRun || changeCount(plan) === 0) {
          return { body: plan, table: () => formatPlan(plan) };
        }
        // The apply would be refused (422): asking first would be asking for nothing.
        if (plan.violations?.length) {
          throw new CliError(
            'Nothing was applied: the document breaks rules of scope policies',
            exitCodeOf(422),
            plan.violations.map(violationLine),
            'POLICY_VIOLATION',
          );
        }
        if (ctx.format === 'table') ctx.print({ table: () => formatPlan(plan) });
        else if (!options.yes) process.stderr.write(`${formatPlan(plan)}\n`);
        if (!options.yes) {
          if (!process.stdin.isTTY) {
            throw usageError(
              'stdin is not a terminal, so nothing was changed: add --yes to apply without asking',
            );
          }
          if (!(await confirmed('Apply these changes? [y/N] ')))
            throw usageError('Nothing was changed.');
        }
        const applied = await call(
          ctx.url,
          ctx.api.POST('/v1/apply', {
            params: { header: { 'If-Match': plan.planVersion } },
            body: document,
          }),
        );
        const result = applied.data;
        return { body: result, table: () => formatPlan({ ...result, changes: [] }).trimStart() };
      }),
    );
}

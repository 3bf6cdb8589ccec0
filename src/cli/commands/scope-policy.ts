import type { Command } from 'commander';
import { call } from '../client';
import { readDocument } from '../document-file';
import type { components } from '../generated/api';
import { propertiesTable } from '../output';
import { formatPolicyReport } from '../policy-report';
import { action } from './action';

type ScopePolicy = components['schemas']['ScopePolicy'];

/** `scopes policy S` and `scopes set-policy S -f FILE` (docs/extensions.md section 10). */
export function addScopePolicyCommands(scopes: Command): void {
  scopes
    .command('policy')
    .argument('<scope>')
    .description("show a scope's policy and how the scope stands against it")
    .action(
      action(async (ctx, [scopeName]) => {
        const params = { path: { scopeName } };
        const read = await call(ctx.url, ctx.api.GET('/v1/scopes/{scopeName}/policy', { params }));
        const { data: compliance } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/policy/compliance', { params }),
        );
        const etag = read.response.headers.get('ETag');
        return {
          body: { policy: read.data, compliance },
          table: () => formatPolicyReport(scopeName, read.data, etag, compliance),
        };
      }),
    );
  scopes
    .command('set-policy')
    .argument('<scope>')
    .description("replace a scope's whole policy with a YAML or JSON file ({} clears it)")
    .requiredOption('-f, --file <file>', 'the policy (`-` reads stdin)')
    .option('--if-match <etag>', 'change it only if its ETag is still this one')
    .action(
      action(async (ctx, [scopeName], options) => {
        const ifMatch = options.ifMatch as string | undefined;
        const { data, response } = await call(
          ctx.url,
          ctx.api.PUT('/v1/scopes/{scopeName}/policy', {
            params: { path: { scopeName }, header: ifMatch ? { 'If-Match': ifMatch } : {} },
            body: readDocument<ScopePolicy>(options.file as string),
          }),
        );
        const etag = response.headers.get('ETag');
        return {
          body: data,
          table: () =>
            `Set the policy of scope ${scopeName} (ETag ${etag})\n${propertiesTable(data)}`,
        };
      }),
    );
}

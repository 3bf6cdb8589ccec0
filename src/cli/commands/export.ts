import { Command } from 'commander';
import { stringify } from 'yaml';
import { Api, call } from '../client';
import { usageError } from '../exit-codes';
import { ExportedScope, toApplyDocument } from '../export-document';
import { allPages, Page, PAGE_LIMIT } from '../pages';
import { action } from './action';

/** Paging parameters (docs/extensions.md section 1); a service that does not page ignores them. */
const pageQuery = (token?: string) => ({
  limit: PAGE_LIMIT,
  ...(token ? { continuationToken: token } : {}),
});

async function scopeNames(url: string, api: Api): Promise<string[]> {
  const scopes = await allPages(async (token) => {
    const { data } = await call(
      url,
      api.GET('/v1/scopes', { params: { query: pageQuery(token) } }),
    );
    return {
      items: data.scopes.map((s) => s.scopeName),
      continuationToken: data.continuationToken,
    };
  });
  // Names starting with `_` are the system's own: they cannot be applied, so they are not exported.
  return scopes.filter((name) => !name.startsWith('_'));
}

async function exportScope(url: string, api: Api, scopeName: string): Promise<ExportedScope> {
  const path = { scopeName };
  const streams = await allPages(async (token) => {
    const query = pageQuery(token);
    const { data } = await call(
      url,
      api.GET('/v1/scopes/{scopeName}/streams', { params: { path, query } }),
    );
    return { items: data.streams, continuationToken: data.continuationToken } satisfies Page<
      (typeof data.streams)[number]
    >;
  });
  const groupNames = await allPages(async (token) => {
    const query = pageQuery(token);
    const { data } = await call(
      url,
      api.GET('/v1/scopes/{scopeName}/readergroups', { params: { path, query } }),
    );
    return {
      items: data.readerGroups.map((g) => g.readerGroupName!),
      continuationToken: data.continuationToken,
    };
  });
  const readerGroups = [];
  for (const readerGroupName of groupNames) {
    const params = { path: { scopeName, readerGroupName } };
    const { data } = await call(
      url,
      api.GET('/v1/scopes/{scopeName}/readergroups/{readerGroupName}', { params }),
    );
    readerGroups.push(data);
  }
  const { data: policy } = await call(
    url,
    api.GET('/v1/scopes/{scopeName}/policy', { params: { path } }),
  );
  return { scopeName, policy, streams, readerGroups };
}

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'write the scopes (with their policies), streams and reader groups as a document for `apply`',
    )
    .option('--scope <scope>', 'only this scope')
    .action(
      action(async (ctx, _args, options) => {
        const format = ctx.options.output ?? 'yaml';
        if (format === 'table') throw usageError('export writes yaml or json, not a table');
        const scope = options.scope as string | undefined;
        if (scope !== undefined) {
          // A missing scope is an error (exit 2), not an empty document.
          await call(
            ctx.url,
            ctx.api.GET('/v1/scopes/{scopeName}', { params: { path: { scopeName: scope } } }),
          );
        }
        const names = scope !== undefined ? [scope] : await scopeNames(ctx.url, ctx.api);
        const scopes: ExportedScope[] = [];
        for (const name of names) scopes.push(await exportScope(ctx.url, ctx.api, name));
        const document = toApplyDocument(scopes);
        ctx.print({ body: document, table: () => stringify(document) }, format);
      }),
    );
}

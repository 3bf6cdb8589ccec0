import { Command } from 'commander';
import { call } from '../client';
import { done, listTable, propertiesTable } from '../output';
import { action } from './action';
import { addScopePolicyCommands } from './scope-policy';

export function scopesCommand(): Command {
  const scopes = new Command('scopes').description(
    'list, show, create and delete scopes, and show and set their policies',
  );
  scopes
    .command('list')
    .description('list the scopes')
    .action(
      action(async (ctx) => {
        const { data } = await call(ctx.url, ctx.api.GET('/v1/scopes'));
        return {
          body: data,
          table: () =>
            listTable(
              ['scope'],
              data.scopes.map((s) => [s.scopeName]),
            ),
        };
      }),
    );
  scopes
    .command('get')
    .argument('<scope>')
    .description('show a scope')
    .action(
      action(async (ctx, [scopeName]) => {
        const path = { scopeName };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}', { params: { path } }),
        );
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
  scopes
    .command('create')
    .argument('<scope>')
    .description('create a scope')
    .action(
      action(async (ctx, [scopeName]) => {
        const { data } = await call(ctx.url, ctx.api.POST('/v1/scopes', { body: { scopeName } }));
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
  scopes
    .command('delete')
    .argument('<scope>')
    .description('delete an empty scope')
    .action(
      action(async (ctx, [scopeName]) => {
        const path = { scopeName };
        await call(ctx.url, ctx.api.DELETE('/v1/scopes/{scopeName}', { params: { path } }));
        return done(`Deleted scope ${scopeName}`);
      }),
    );
  addScopePolicyCommands(scopes);
  return scopes;
}

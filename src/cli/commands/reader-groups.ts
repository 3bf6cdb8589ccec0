import { Command } from 'commander';
import { collect } from '../arguments';
import { call } from '../client';
import { done, listTable, propertiesTable } from '../output';
import { action } from './action';

export function readerGroupsCommand(): Command {
  const groups = new Command('readergroups').description('manage the reader groups of a scope');
  groups
    .command('list')
    .argument('<scope>')
    .description("list a scope's reader groups")
    .action(
      action(async (ctx, [scopeName]) => {
        const params = { path: { scopeName } };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/readergroups', { params }),
        );
        return {
          body: data,
          table: () =>
            listTable(
              ['reader group'],
              data.readerGroups.map((g) => [g.readerGroupName]),
            ),
        };
      }),
    );
  groups
    .command('get')
    .argument('<scope>')
    .argument('<group>')
    .description('show a reader group: its streams and online readers')
    .action(
      action(async (ctx, [scopeName, readerGroupName]) => {
        const params = { path: { scopeName, readerGroupName } };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/readergroups/{readerGroupName}', { params }),
        );
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
  groups
    .command('create')
    .argument('<scope>')
    .argument('<group>')
    .requiredOption(
      '--stream <stream>',
      'a stream it reads, `stream` or `scope/stream` (repeat for more)',
      collect,
    )
    .description('create a reader group')
    .action(
      action(async (ctx, [scopeName, readerGroupName], options) => {
        const params = { path: { scopeName } };
        const body = { readerGroupName, streams: options.stream as string[] };
        const { data } = await call(
          ctx.url,
          ctx.api.POST('/v1/scopes/{scopeName}/readergroups', { params, body }),
        );
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
  groups
    .command('delete')
    .argument('<scope>')
    .argument('<group>')
    .description('delete a reader group')
    .action(
      action(async (ctx, [scopeName, readerGroupName]) => {
        const params = { path: { scopeName, readerGroupName } };
        await call(
          ctx.url,
          ctx.api.DELETE('/v1/scopes/{scopeName}/readergroups/{readerGroupName}', { params }),
        );
        return done(`Deleted reader group ${scopeName}/${readerGroupName}`);
      }),
    );
  return groups;
}

const READER_PATH = '/v1/scopes/{scopeName}/readergroups/{readerGroupName}/readers/{readerId}';

export function readersCommand(): Command {
  const readers = new Command('readers').description(
    "mark a reader group's readers online or offline",
  );
  readers
    .command('online')
    .argument('<scope>')
    .argument('<group>')
    .argument('<reader>')
    .description('mark a reader online')
    .action(
      action(async (ctx, [scopeName, readerGroupName, readerId]) => {
        const params = { path: { scopeName, readerGroupName, readerId } };
        await call(ctx.url, ctx.api.PUT(READER_PATH, { params }));
        return done(`Reader ${readerId} of ${scopeName}/${readerGroupName} is online`);
      }),
    );
  readers
    .command('offline')
    .argument('<scope>')
    .argument('<group>')
    .argument('<reader>')
    .description('mark a reader offline')
    .action(
      action(async (ctx, [scopeName, readerGroupName, readerId]) => {
        const params = { path: { scopeName, readerGroupName, readerId } };
        await call(ctx.url, ctx.api.DELETE(READER_PATH, { params }));
        return done(`Reader ${readerId} of ${scopeName}/${readerGroupName} is offline`);
      }),
    );
  return readers;
}

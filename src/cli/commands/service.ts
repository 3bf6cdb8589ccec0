import { Command } from 'commander';
import { integer } from '../arguments';
import { call } from '../client';
import { listTable, propertiesTable } from '../output';
import { action } from './action';

export function healthCommand(): Command {
  return new Command('health').description("the service's health").action(
    action(async (ctx) => {
      const { data } = await call(ctx.url, ctx.api.GET('/v1/health'));
      return { body: data, table: () => propertiesTable(data) };
    }),
  );
}

export function auditCommand(): Command {
  return new Command('audit')
    .description('the newest audit events')
    .option('--limit <n>', 'how many events, newest first', integer, 100)
    .action(
      action(async (ctx, _args, options) => {
        const query = { limit: options.limit as number };
        const { data } = await call(ctx.url, ctx.api.GET('/v1/audit', { params: { query } }));
        return {
          body: data,
          table: () =>
            listTable(
              ['id', 'time (UTC)', 'outcome', 'principal', 'operation', 'resource'],
              data.auditEvents.map((e) => [
                e.id,
                new Date(e.time).toISOString(),
                e.outcome,
                e.principal,
                e.operation,
                e.resource,
              ]),
            ),
        };
      }),
    );
}

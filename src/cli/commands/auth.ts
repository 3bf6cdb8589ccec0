import { Argument, Command } from 'commander';
import { call } from '../client';
import { propertiesTable } from '../output';
import { action } from './action';

/** `tributary whoami`: who the service takes the caller for (docs/extensions.md section 9). */
export function whoamiCommand(): Command {
  return new Command('whoami')
    .description('who the service takes you for: principal, groups and ACL')
    .action(
      action(async (ctx) => {
        const { data } = await call(ctx.url, ctx.api.GET('/v1/auth/whoami'));
        return {
          body: data,
          table: () => propertiesTable(data),
        };
      }),
    );
}

/** `tributary explain RESOURCE PERMISSION`: the service's access check, and what decided it. */
export function explainCommand(): Command {
  return new Command('explain')
    .argument('<resource>', 'prn::/, prn::/scope:S, prn::/scope:S/stream:T, ...')
    .addArgument(new Argument('<permission>').choices(['READ', 'READ_UPDATE']))
    .description('whether you have a permission on a resource, and which ACL entry decided it')
    .action(
      action(async (ctx, [resource, permission]) => {
        const query = { resource, permission: permission as 'READ' | 'READ_UPDATE' };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/auth/explain', { params: { query } }),
        );
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
}

import { Command } from 'commander';
import { instant } from '../arguments';
import { call } from '../client';
import { CliError, Exit } from '../exit-codes';
import type { components } from '../generated/api';
import { done, listTable, propertiesTable } from '../output';
import { action } from './action';
import { addLoadCommands } from './load';
import { addSegmentCommands } from './segments';
import { policyBody, withPolicyOptions } from './stream-options';

type StreamProperty = components['schemas']['StreamProperty'];
type ScaleMetadata = components['schemas']['ScaleMetadata'];

function retentionText(stream: StreamProperty): string {
  const policy = stream.retentionPolicy;
  if (!policy) return 'forever';
  const unit = policy.type === 'LIMITED_DAYS' ? 'days' : 'MiB';
  const max = policy.maxValue ? `..${policy.maxValue}` : '';
  return `${policy.value}${max} ${unit}`;
}

const streamRows = (streams: StreamProperty[]) =>
  streams.map((s) => [
    s.streamName,
    s.scalingPolicy.type,
    s.scalingPolicy.minSegments,
    retentionText(s),
    s.tags.join(', '),
  ]);

/** Scaling events: one row per epoch, its start in ms and as a date. */
export const historyTable = (events: ScaleMetadata[]): string =>
  listTable(
    ['epoch time (ms)', 'time (UTC)', 'segments', 'splits', 'merges'],
    events.map((e) => [
      e.timestamp,
      new Date(e.timestamp).toISOString(),
      e.segmentList.length,
      e.splits,
      e.merges,
    ]),
  );

/**
 * A 404 that names no missing scope or stream means the route itself is missing: a service
 * without the describe extension (docs/extensions.md section 4). Say so beside the service's words.
 */
function withoutDescribeHint(error: unknown): unknown {
  if (!(error instanceof CliError) || error.exitCode !== Exit.notFound) return error;
  if (error.code === 'STREAM_NOT_FOUND' || error.code === 'SCOPE_NOT_FOUND') return error;
  const hint = 'this service does not describe streams; `streams get` shows the configuration';
  return new CliError(error.message, error.exitCode, [...error.details, hint], error.code);
}

export function streamsCommand(): Command {
  const streams = new Command('streams').description('manage the streams of a scope');
  streams
    .command('list')
    .argument('<scope>')
    .description("list a scope's user streams")
    .action(
      action(async (ctx, [scopeName]) => {
        const params = { path: { scopeName } };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/streams', { params }),
        );
        return {
          body: data,
          table: () =>
            listTable(
              ['stream', 'scaling', 'min segments', 'retention', 'tags'],
              streamRows(data.streams),
            ),
        };
      }),
    );
  streams
    .command('get')
    .argument('<scope>')
    .argument('<stream>')
    .description("show a stream's configuration")
    .action(
      action(async (ctx, [scopeName, streamName]) => {
        const params = { path: { scopeName, streamName } };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/streams/{streamName}', { params }),
        );
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
  withPolicyOptions(
    streams
      .command('create')
      .argument('<scope>')
      .argument('<stream>')
      .description('create a stream'),
  ).action(
    action(async (ctx, [scopeName, streamName], options) => {
      const params = { path: { scopeName } };
      const body = { streamName, ...policyBody(options) };
      const { data } = await call(
        ctx.url,
        ctx.api.POST('/v1/scopes/{scopeName}/streams', { params, body }),
      );
      return { body: data, table: () => propertiesTable(data) };
    }),
  );
  withPolicyOptions(
    streams
      .command('update')
      .argument('<scope>')
      .argument('<stream>')
      .description("replace a stream's configuration (what is not given is reset)"),
  ).action(
    action(async (ctx, [scopeName, streamName], options) => {
      const params = { path: { scopeName, streamName } };
      // The service names what is missing (a scaling policy is required): no rules of our own.
      const body = policyBody(options) as components['schemas']['UpdateStreamRequest'];
      const { data } = await call(
        ctx.url,
        ctx.api.PUT('/v1/scopes/{scopeName}/streams/{streamName}', { params, body }),
      );
      return { body: data, table: () => propertiesTable(data) };
    }),
  );
  streams
    .command('seal')
    .argument('<scope>')
    .argument('<stream>')
    .description('seal a stream: no more writes')
    .action(
      action(async (ctx, [scopeName, streamName]) => {
        const params = { path: { scopeName, streamName } };
        const { data } = await call(
          ctx.url,
          ctx.api.PUT('/v1/scopes/{scopeName}/streams/{streamName}/state', {
            params,
            body: { streamState: 'SEALED' },
          }),
        );
        return { body: data, table: () => `Sealed stream ${scopeName}/${streamName}` };
      }),
    );
  streams
    .command('delete')
    .argument('<scope>')
    .argument('<stream>')
    .description('delete a sealed stream')
    .action(
      action(async (ctx, [scopeName, streamName]) => {
        const params = { path: { scopeName, streamName } };
        await call(
          ctx.url,
          ctx.api.DELETE('/v1/scopes/{scopeName}/streams/{streamName}', { params }),
        );
        return done(`Deleted stream ${scopeName}/${streamName}`);
      }),
    );
  streams
    .command('describe')
    .argument('<scope>')
    .argument('<stream>')
    .description('describe a stream: state, times, epoch, active segments, reader groups')
    .action(
      action(async (ctx, [scopeName, streamName]) => {
        const params = { path: { scopeName, streamName } };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/streams/{streamName}/description', { params }),
        ).catch((error: unknown) => {
          throw withoutDescribeHint(error);
        });
        return { body: data, table: () => propertiesTable(data) };
      }),
    );
  streams
    .command('history')
    .argument('<scope>')
    .argument('<stream>')
    .description('the scaling events of a stream')
    .option('--from <time>', 'start of the window: ms since 1970 or an ISO date', instant, 0)
    .option(
      '--to <time>',
      'end of the window: ms since 1970 or an ISO date (default: now)',
      instant,
    )
    .action(
      action(async (ctx, [scopeName, streamName], options) => {
        const query = {
          from: options.from as number,
          to: (options.to as number | undefined) ?? Date.now(),
        };
        const params = { path: { scopeName, streamName }, query };
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/streams/{streamName}/scaling-events', { params }),
        );
        return { body: data, table: () => historyTable(data.scalingEvents) };
      }),
    );
  addSegmentCommands(streams);
  addLoadCommands(streams);
  return streams;
}

import { Command } from 'commander';
import { integer, momentAgo, type Rates, rates } from '../arguments';
import { call } from '../client';
import type { components } from '../generated/api';
import { listTable } from '../output';
import { action } from './action';

type LoadAnswer = components['schemas']['LoadAnswer'];
type LoadScale = components['schemas']['LoadScale'];

const when = (ms: number): string => new Date(ms).toISOString();

/** What each report did: one row per result, why nothing happened or which rule scaled. */
function resultsText(stream: string, answer: LoadAnswer, dryRun: boolean): string {
  const headline = dryRun
    ? `Dry run, nothing changed: ${stream} would be at epoch ${answer.epoch}`
    : `${stream} is at epoch ${answer.epoch}`;
  const rows = answer.results.map((r) => [
    r.segment,
    r.outcome,
    r.reason ?? (r.wanted ? `wanted ${r.wanted}` : ''),
    r.because,
  ]);
  return [headline, listTable(['segment', 'outcome', 'reason', 'because'], rows)].join('\n');
}

/** The recent scales by load, newest first, each with the rule that made it. */
function scalesText(stream: string, scales: LoadScale[]): string {
  if (scales.length === 0) return `No automatic scales of ${stream} yet`;
  const rows = scales.map((s) => [
    when(s.at),
    s.epoch,
    s.segment,
    s.direction,
    s.because,
    s.sealedSegments.join(', '),
    s.newSegments.map((n) => n.number).join(', '),
    s.principal,
  ]);
  return listTable(
    ['time (UTC)', 'epoch', 'segment', 'direction', 'because', 'sealed', 'opened', 'by'],
    rows,
  );
}

/**
 * `streams report-load` and `streams load-scales` (docs/extensions.md sections 6 and 11): a
 * report of one segment's load, and the scales such reports made.
 */
export function addLoadCommands(streams: Command): void {
  streams
    .command('report-load')
    .argument('<scope>')
    .argument('<stream>')
    .description("report a segment's load; the service splits or merges by the stream's policy")
    .requiredOption('--segment <number>', 'the segment measured', integer)
    .requiredOption(
      '--since <when>',
      'when measuring began: how long ago (90s, 30m, 2h, 1d) or ms since 1970',
      (value: string) => momentAgo(value),
    )
    .requiredOption(
      '--rates <two,five,ten,twenty>',
      "the segment's rates over two, five, ten and twenty minutes, like 620,300,150,80",
      rates,
    )
    .option('--dry-run', 'show what the report would do, and change nothing')
    .action(
      action(async (ctx, [scopeName, streamName], options) => {
        const dryRun = options.dryRun === true;
        const report = {
          segment: options.segment as number,
          since: options.since as number,
          ...(options.rates as Rates),
        };
        const { data } = await call(
          ctx.url,
          ctx.api.POST('/v1/scopes/{scopeName}/streams/{streamName}/load', {
            params: { path: { scopeName, streamName }, query: dryRun ? { dryRun: true } : {} },
            body: { reports: [report] },
          }),
        );
        const stream = `${scopeName}/${streamName}`;
        return { body: data, table: () => resultsText(stream, data, dryRun) };
      }),
    );
  streams
    .command('load-scales')
    .argument('<scope>')
    .argument('<stream>')
    .description('the recent scales that reports of load made, newest first')
    .option('--limit <n>', 'at most this many (1 to 100; default 20)', integer)
    .action(
      action(async (ctx, [scopeName, streamName], options) => {
        const limit = options.limit as number | undefined;
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/streams/{streamName}/load', {
            params: {
              path: { scopeName, streamName },
              query: limit === undefined ? {} : { limit },
            },
          }),
        );
        const stream = `${scopeName}/${streamName}`;
        return { body: data, table: () => scalesText(stream, data.scales) };
      }),
    );
}

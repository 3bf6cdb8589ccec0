import { Command } from 'commander';
import { instant, keyRange, segmentNumbers } from '../arguments';
import { call } from '../client';
import type { Context } from '../context';
import type { components } from '../generated/api';
import { drawingWidth, keySpaceDrawing, KeySpaceRow } from '../key-space';
import { listTable } from '../output';
import { action } from './action';

type Segment = components['schemas']['Segment'];
type ScaleResult = components['schemas']['ScaleStreamResult'];

const LABEL_WIDTH = 'before'.length + 1;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const when = (ms: number): string => new Date(ms).toISOString();

/**
 * Segments by keyStart, their bounds exactly as the service sent them (a scale must repeat them);
 * with `opened`, a column marks the new ones.
 */
function segmentsTable(segments: readonly Segment[], opened?: ReadonlySet<number>): string {
  const head = ['segment', 'key start', 'key end', 'since (UTC)'];
  const rows = segments.map((s) => [
    s.number,
    String(s.keyStart),
    String(s.keyEnd),
    when(s.startTime),
  ]);
  if (!opened) return listTable(head, rows);
  return listTable(
    [...head, ''],
    rows.map((row, i) => [...row, opened.has(segments[i].number) ? 'new' : '']),
  );
}

function drawing(rows: KeySpaceRow[]): string {
  return keySpaceDrawing(rows, drawingWidth(process.stdout.columns, LABEL_WIDTH));
}

/** The segments of the epoch a scale started from, read back for the drawing. */
async function segmentsBefore(
  ctx: Context,
  path: { scopeName: string; streamName: string },
  scaled: ScaleResult,
  dryRun: boolean,
): Promise<Segment[]> {
  // Epoch times strictly increase, so the epoch before the new one is the one in force just
  // before it; a dry run changed nothing, so that is the current one.
  const query = dryRun ? {} : { at: scaled.timestamp - 1 };
  const { data } = await call(
    ctx.url,
    ctx.api.GET('/v1/scopes/{scopeName}/streams/{streamName}/segments', {
      params: { path, query },
    }),
  );
  return data.segments;
}

/** What a person reads of a scale: what changed, the segments after it, the key space drawn. */
function scaleText(
  stream: string,
  scaled: ScaleResult,
  before: Segment[],
  dryRun: boolean,
): string {
  const opened = new Set(scaled.newSegments.map((s) => s.number));
  const sealed = new Set(scaled.sealedSegments);
  const what =
    `sealed ${scaled.sealedSegments.join(', ')}; opened ${[...opened].join(', ')}; ` +
    `${plural(scaled.splits, 'split')}, ${plural(scaled.merges, 'merge')}`;
  const headline = dryRun
    ? `Dry run, nothing changed: scaling ${stream} would make epoch ${scaled.epoch} (${what})`
    : `Scaled ${stream}: epoch ${scaled.epoch} at ${when(scaled.timestamp)} (${what})`;
  return [
    headline,
    segmentsTable(scaled.segments, opened),
    '',
    drawing([
      { label: 'before', segments: before, changed: sealed },
      { label: 'after', segments: scaled.segments, changed: opened },
    ]),
    '═ sealed (before), opened (after)',
  ].join('\n');
}

/**
 * `streams scale` and `streams segments` (docs/extensions.md sections 6 and 7): scaling a stream
 * by hand, and the segments it had at a moment.
 */
export function addSegmentCommands(streams: Command): void {
  streams
    .command('scale')
    .argument('<scope>')
    .argument('<stream>')
    .description('scale a stream by hand: seal segments and open new ones over their key space')
    .requiredOption('--seal <numbers>', 'segments to seal, like 2,3 (repeatable)', segmentNumbers)
    .requiredOption(
      '--range <start:end>',
      'a new segment over [start, end), like 0.25:0.4 (repeat for each, in order)',
      keyRange,
    )
    .option('--dry-run', 'show what the scale would do, and change nothing')
    .action(
      action(async (ctx, [scopeName, streamName], options) => {
        const dryRun = options.dryRun === true;
        const path = { scopeName, streamName };
        const body = {
          sealedSegments: options.seal as number[],
          newRanges: options.range as { keyStart: number; keyEnd: number }[],
        };
        const { data } = await call(
          ctx.url,
          ctx.api.POST('/v1/scopes/{scopeName}/streams/{streamName}/scale', {
            params: { path, query: dryRun ? { dryRun: true } : {} },
            body,
          }),
        );
        // Only a person's view draws the epoch before, which takes one more read.
        const before = ctx.format === 'table' ? await segmentsBefore(ctx, path, data, dryRun) : [];
        const stream = `${scopeName}/${streamName}`;
        return { body: data, table: () => scaleText(stream, data, before, dryRun) };
      }),
    );
  streams
    .command('segments')
    .argument('<scope>')
    .argument('<stream>')
    .description('the segments of a stream at a moment (default: now)')
    .option('--at <time>', 'the moment: ms since 1970 or an ISO date (default: now)', instant)
    .action(
      action(async (ctx, [scopeName, streamName], options) => {
        const at = options.at as number | undefined;
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/scopes/{scopeName}/streams/{streamName}/segments', {
            params: { path: { scopeName, streamName }, query: at === undefined ? {} : { at } },
          }),
        );
        const moment = at === undefined ? 'now' : `at ${when(at)}`;
        const table = () =>
          [
            `Epoch ${data.epoch} of ${scopeName}/${streamName} ${moment}`,
            segmentsTable(data.segments),
            '',
            drawing([{ label: 'keys', segments: data.segments }]),
          ].join('\n');
        return { body: data, table };
      }),
    );
}

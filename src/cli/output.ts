import Table from 'cli-table3';
import { pc } from './colours';
import { stringify } from 'yaml';

export const FORMATS = ['table', 'json', 'yaml'] as const;
export type Format = (typeof FORMATS)[number];

/** What a command shows: the REST answer's body for json/yaml, text for people for table. */
export interface Outcome {
  body?: unknown;
  table: () => string;
}

/** `-o table` on a terminal, json for scripts and pipes. */
export const defaultFormat = (stdoutIsTty: boolean): Format => (stdoutIsTty ? 'table' : 'json');

/** The text to write on stdout, or '' when there is nothing (a 204 as json or yaml). */
export function render(outcome: Outcome, format: Format): string {
  if (format === 'table') return `${outcome.table()}\n`;
  if (outcome.body === undefined) return '';
  return format === 'json' ? `${JSON.stringify(outcome.body, null, 2)}\n` : stringify(outcome.body);
}

type Cell = string | number | boolean | undefined | null;

/** A table with a header row; no colour in the borders, so pipes and logs stay readable. */
export function listTable(head: string[], rows: Cell[][]): string {
  const table = new Table({
    head: head.map((h) => pc.bold(h)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  table.push(
    ...rows.map((row) =>
      row.map((cell) => (cell === undefined || cell === null ? '' : String(cell))),
    ),
  );
  return table.toString();
}

/** The leaves of an object by path (`scalingPolicy.minSegments`), lists joined with commas. */
export function flatten(value: unknown, path = ''): [string, Cell][] {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) return [[path, value.join(', ')]];
    return value.flatMap((v, i) => flatten(v, `${path}[${i}]`));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, path ? `${path}.${k}` : k));
  }
  return [[path, value as Cell]];
}

/** One resource as a two-column table of its fields. */
export const propertiesTable = (value: object): string =>
  listTable(['field', 'value'], flatten(value));

export const done = (message: string): Outcome => ({ table: () => pc.green(message) });

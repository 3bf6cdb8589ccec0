import type { FieldDiff } from './planned-change';

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Lists are sets here (a stream's tags, a reader group's streams): order carries no meaning. */
const asSet = (list: unknown[]): string => JSON.stringify(list.map(String).sort());
const sameValue = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? asSet(a as unknown[]) === asSet(b as unknown[]) : a === b;

/**
 * The leaves that differ between two rendered configurations, by path
 * (`scalingPolicy.minSegments`); a part present on one side only is one entry at its own path.
 */
export function configurationDiff(before: object, after: object, path = ''): FieldDiff[] {
  const b = before as Fields;
  const a = after as Fields;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.flatMap((key) => {
    const field = path ? `${path}.${key}` : key;
    const was = b[key];
    const is = a[key];
    if (isFields(was) && isFields(is)) return configurationDiff(was, is, field);
    if ((was === undefined && is === undefined) || sameValue(was, is)) return [];
    return [
      {
        path: field,
        ...(was !== undefined ? { before: was } : {}),
        ...(is !== undefined ? { after: is } : {}),
      },
    ];
  });
}

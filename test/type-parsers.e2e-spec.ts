import type { DataSource } from 'typeorm';
import { openMigratedDatabase } from './support/test-database';

/**
 * The pool the service configures reads `text[]` and `bigint` as `pg` would
 * (`database/type-parsers.ts`): values PostgreSQL writes back exactly as they went in.
 */
describe('How the pool reads text[] and bigint (e2e)', () => {
  let database: Awaited<ReturnType<typeof openMigratedDatabase>>;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await openMigratedDatabase(1);
    dataSource = database.dataSource;
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database.drop();
  });

  const roundTrip = async (value: unknown[], type = 'text[]'): Promise<unknown> => {
    const [row] = await dataSource.query<{ v: unknown }[]>(`SELECT $1::${type} AS v`, [value]);
    return row.v;
  };

  it.each<[string, (string | null)[]]>([
    ['empty', []],
    ['plain', ['bench', 'group-3', 'a.b_c']],
    ['null elements', ['a', null, 'b']],
    ['the text NULL', ['NULL', 'null']],
    ['empty texts', ['', 'x', '']],
    ['quotes and backslashes', ['say "hi"', 'a\\b', '\\']],
    ['commas, braces, spaces', ['a,b', '{c}', ' d ', 'e f']],
    ['not ASCII', ['é', '日本', '😀']],
  ])('answers a text[] of %s as it was written', async (_, value) => {
    expect(await roundTrip(value)).toEqual(value);
  });

  it('answers a two-dimensional text[] and one with other bounds as pg does', async () => {
    expect(
      await roundTrip([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    const [row] = await dataSource.query<{ v: unknown }[]>(`SELECT '[0:1]={x,y}'::text[] AS v`);
    expect(row.v).toEqual(['x', 'y']);
  });

  it('answers a bigint as its text, every digit kept', async () => {
    const [row] = await dataSource.query<{ big: unknown; small: unknown; negative: unknown }[]>(
      `SELECT 9223372036854775807::bigint AS big, 0::bigint AS small, (-42)::bigint AS negative`,
    );
    expect(row).toEqual({ big: '9223372036854775807', small: '0', negative: '-42' });
  });
});

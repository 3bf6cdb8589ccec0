import type { DataSource, SelectQueryBuilder } from 'typeorm';
import { RETURNING_VERSION } from '../src/database/column-transformers';
import { byKeyset, type Keyset } from '../src/database/keyset';
import {
  InsertRows,
  KeysetBuiltOnce,
  manyOf,
  needsHydrating,
  QueryBuiltOnce,
  ReadByKey,
  UpdateRows,
} from '../src/database/statements-built-once';
import { ScopeEntity } from '../src/scopes/scope.entity';
import {
  CONFIGURATION_PROPERTIES,
  LISTED_PROPERTIES,
  StreamEntity,
} from '../src/streams/stream.entity';
import { openMigratedDatabase } from './support/test-database';

/**
 * The statements written once from an entity's metadata read and write what the repository API
 * reads and writes, transformers included, on a database the migrations made.
 */
describe('Statements built once (e2e)', () => {
  let database: Awaited<ReturnType<typeof openMigratedDatabase>>;
  let dataSource: DataSource;

  const stream = (name: string) => ({
    scopeName: 'built',
    name,
    ownerStream: null,
    ownerReaderGroup: null,
    state: 'ACTIVE' as const,
    scalingType: 'BY_RATE_IN_KBYTES_PER_SEC' as const,
    minSegments: 3,
    targetRate: 10,
    scaleFactor: 2,
    retentionType: 'LIMITED_SIZE_MB' as const,
    retentionMin: 2 ** 40,
    retentionMax: null,
    tags: ['a', 'b,c', '"quoted"'],
    rolloverSizeBytes: 1024,
    timestampAggregationTimeout: 9_007_199_254_740_991,
  });
  const insert = new InsertRows(
    StreamEntity,
    ['scopeName', 'name', 'ownerStream', 'ownerReaderGroup', 'state', ...CONFIGURATION_PROPERTIES],
    `name, ${RETURNING_VERSION}`,
  );
  const byName = new ReadByKey(StreamEntity, ['scopeName', 'name']);

  beforeAll(async () => {
    database = await openMigratedDatabase(2);
    dataSource = database.dataSource;
    await dataSource.getRepository(ScopeEntity).insert({ name: 'built' });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database.drop();
  });

  it('inserts rows as the repository API would, and reads back what findOneBy reads', async () => {
    const inserted = await insert.run<{ name: string; created: string; version: string }>(
      dataSource.manager,
      [stream('one'), stream('two')],
    );
    expect(inserted.map((row) => [row.name, row.version])).toEqual([
      ['one', '1'],
      ['two', '1'],
    ]);
    expect(inserted[0].created).toMatch(/^\d{16}$/);

    const read = await byName.one(dataSource.manager, ['built', 'two']);
    const api = await dataSource.getRepository(StreamEntity).findOneBy({
      scopeName: 'built',
      name: 'two',
    });
    expect(read).toBeInstanceOf(StreamEntity);
    expect(read).toEqual(api);
    expect(read).toMatchObject({ ...stream('two'), created: inserted[1].created });
  });

  it('reads the properties asked for alone, locked when asked', async () => {
    const some = new ReadByKey(StreamEntity, ['scopeName', 'name'], {
      properties: ['name', 'created', 'version', 'tags'],
      lock: 'FOR UPDATE',
    });
    const row = await dataSource.transaction((manager) => some.one(manager, ['built', 'two']));
    const whole = await byName.one(dataSource.manager, ['built', 'two']);
    expect(row).toBeInstanceOf(StreamEntity);
    expect(Object.entries(row!).filter(([, value]) => value !== undefined)).toEqual(
      expect.arrayContaining([
        ['name', 'two'],
        ['created', whole!.created],
        ['version', whole!.version],
        ['tags', whole!.tags],
      ]),
    );
    expect((row as StreamEntity).createdAt).toBeUndefined();
    expect((row as StreamEntity).minSegments).toBeUndefined();
  });

  it('reads nothing for a key that matches no row', async () => {
    expect(await byName.one(dataSource.manager, ['built', 'none'])).toBeUndefined();
  });

  it('refuses a key or a column the entity does not have, naming it', async () => {
    const wrong = new ReadByKey(StreamEntity, ['nmae' as 'name']);
    await expect(wrong.one(dataSource.manager, ['x'])).rejects.toThrow(
      'StreamEntity has no column nmae',
    );
  });

  it('updates the rows the where clause selects, numbering its placeholders after the set', async () => {
    await insert.run(dataSource.manager, [stream('three')]);
    const update = new UpdateRows(StreamEntity, ['minSegments', 'tags'], {
      also: 'version = version + 1',
      where: 'scope_name = $1 AND name = ANY($2::text[])',
      returning: 'name, version::text AS version',
    });
    const rows = await update.run<{ name: string; version: string }>(
      dataSource.manager,
      { minSegments: 7, tags: ['x'] },
      ['built', ['one', 'three']],
    );
    expect(rows.map((row) => [row.name, row.version]).sort()).toEqual([
      ['one', '2'],
      ['three', '2'],
    ]);
    const repository = dataSource.getRepository(StreamEntity);
    expect(await repository.findOneBy({ scopeName: 'built', name: 'three' })).toMatchObject({
      minSegments: 7,
      tags: ['x'],
    });
    expect(await repository.findOneBy({ scopeName: 'built', name: 'two' })).toMatchObject({
      minSegments: 3,
      version: '1',
    });
  });

  it("sends a query builder's SQL with its parameters in the order the SQL names them", async () => {
    const query = new QueryBuiltOnce(
      (manager) =>
        manager
          .getRepository(StreamEntity)
          .createQueryBuilder('s')
          .select('s.name', 'name')
          .where('s.minSegments > :fewest AND s.scopeName = :scope AND s.name <> :scope')
          .orderBy('s.name'),
      ['scope', 'fewest'],
    );
    const names = async (fewest: number) =>
      (await query.rows<{ name: string }>(dataSource.manager, { scope: 'built', fewest })).map(
        (row) => row.name,
      );
    expect(await names(5)).toEqual(['one', 'three']);
    // The second call sends the SQL of the first with other values.
    expect(await names(0)).toEqual(['one', 'three', 'two']);
  });

  it('refuses a query whose parameters are not the ones it names', async () => {
    const query = new QueryBuiltOnce(
      (manager) =>
        manager
          .getRepository(StreamEntity)
          .createQueryBuilder('s')
          .where('s.name = :name', { name: 'one' })
          .andWhere('s.scopeName = :other', { other: 'built' }),
      ['name'],
    );
    await expect(query.rows(dataSource.manager, { name: 'one' })).rejects.toThrow(
      'is not one of name',
    );
  });

  it("reads a query builder's rows with the columns asked for alone, as getMany reads them", async () => {
    const query = () =>
      dataSource
        .getRepository(StreamEntity)
        .createQueryBuilder('s')
        .where('s.scopeName = :scope', { scope: 'built' })
        .andWhere('s.name > :after', { after: 'one' })
        .orderBy('s.name')
        .limit(2);
    const listed = await manyOf(query(), LISTED_PROPERTIES);
    const whole = await query().getMany();
    expect(whole.map((row) => row.name)).toEqual(['three', 'two']);
    expect(listed).toHaveLength(2);
    listed.forEach((row, i) => {
      // The entity's properties, not an instance of its class; only the columns asked for.
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.keys(row).sort()).toEqual([...LISTED_PROPERTIES].sort());
      for (const property of LISTED_PROPERTIES) expect(row[property]).toEqual(whole[i][property]);
    });
    // Transformers included: a bigint past 2^53's neighbours reads as the number written.
    expect(listed[1].timestampAggregationTimeout).toBe(9_007_199_254_740_991);
    const created = await manyOf(query(), ['name', 'created']);
    expect(created.map((row) => row.created)).toEqual(whole.map((row) => row.created));
  });

  it('reads a keyset page or batch as manyOf reads byKeyset, its SQL built once per kind', async () => {
    // A scope of its own: what the other tests write does not move these pages.
    await dataSource.getRepository(ScopeEntity).insert({ name: 'keyset' });
    await insert.run(
      dataSource.manager,
      ['k-b', 'k-d', 'k-a', 'k-c'].map((name, i) => ({
        ...stream(name),
        scopeName: 'keyset',
        minSegments: i + 1,
      })),
    );
    let builds = 0;
    const where = (query: SelectQueryBuilder<StreamEntity>) =>
      query.where('s.scopeName = :scope').andWhere('s.minSegments >= :least');
    const read = new KeysetBuiltOnce(
      (manager) => {
        builds++;
        return where(manager.getRepository(StreamEntity).createQueryBuilder('s'));
      },
      's.name',
      LISTED_PROPERTIES,
      ['scope', 'least'],
    );
    const values = { scope: 'keyset', least: 2 };
    const expected = (keyset: Keyset<string>) =>
      manyOf(
        byKeyset(
          where(dataSource.getRepository(StreamEntity).createQueryBuilder('s')).setParameters(
            values,
          ),
          's.name',
          keyset,
        ),
        LISTED_PROPERTIES,
      );
    for (const keyset of [
      { take: 2 },
      { take: 1 },
      { after: 'k-a', take: 2 },
      { after: 'k-b', take: 5 },
      { after: 'k-d', take: 5 },
    ]) {
      const rows = await read.rows(dataSource.manager, values, keyset);
      expect(rows).toEqual(await expected(keyset));
    }
    // k-b has one segment, k-d two, k-a three, k-c four: the condition and its values are the read's.
    const names = async (least: number, keyset: Keyset<string>) =>
      (await read.rows(dataSource.manager, { ...values, least }, keyset)).map((r) => r.name);
    expect(await names(2, { take: 5 })).toEqual(['k-a', 'k-c', 'k-d']);
    expect(await names(2, { after: 'k-b', take: 1 })).toEqual(['k-c']);
    expect(await names(4, { take: 5 })).toEqual(['k-c']);
    expect(await names(5, { take: 5 })).toEqual([]);
    // One statement from the start, one after a position, whatever the values and the limit.
    expect(builds).toBe(2);
  });

  it('converts no value of a column the driver hands on as parsed, in any entity', () => {
    // What `pg` answers for such columns: text, numbers as text or numbers, JSON, bytes.
    const parsed = ['text', '9007199254740993', 42, 2.5, { a: [1] }, Buffer.from('x')];
    const asParsed = dataSource.entityMetadatas
      .flatMap((metadata) => metadata.columns)
      .filter((column) => !needsHydrating(column));
    expect(asParsed.length).toBeGreaterThan(50);
    for (const column of asParsed) {
      for (const value of [...parsed, null]) {
        const hydrated: unknown = dataSource.driver.prepareHydratedValue(value, column);
        // The very value: the same object for JSON and bytes, not an equal copy.
        expect([column.propertyPath, Object.is(hydrated, value)]).toEqual([
          column.propertyPath,
          true,
        ]);
      }
    }
    // And the others are converted: a time, a bigint through its transformer.
    const streams = dataSource.getMetadata(StreamEntity);
    const converted = streams.columns.filter(needsHydrating).map((column) => column.propertyName);
    expect(converted.sort()).toEqual(
      [
        'createdAt',
        'retentionMax',
        'retentionMin',
        'rolloverSizeBytes',
        'timestampAggregationTimeout',
        'updatedAt',
      ].sort(),
    );
  });

  it("refuses to read a relation's name as a column of the entity's own", async () => {
    // TypeORM finds `scope`'s join column, scope_name: its rows would hold `scopeName`.
    const query = dataSource.getRepository(StreamEntity).createQueryBuilder('s');
    await expect(manyOf(query, ['scope' as 'name'])).rejects.toThrow(
      "StreamEntity.scope is not a column of the entity's own",
    );
  });
});

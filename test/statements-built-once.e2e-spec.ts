import type { DataSource } from 'typeorm';
import { RETURNING_VERSION } from '../src/database/column-transformers';
import {
  InsertRows,
  QueryBuiltOnce,
  ReadByKey,
  UpdateRows,
} from '../src/database/statements-built-once';
import { ScopeEntity } from '../src/scopes/scope.entity';
import { CONFIGURATION_PROPERTIES, StreamEntity } from '../src/streams/stream.entity';
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
});

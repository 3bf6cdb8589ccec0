import type { Db } from '../database/transaction-host';
import { INTERNAL_STREAM_CONFIGURATION, toStreamConfiguration } from './stream-configuration';
import { configurationColumns } from './stream-columns';
import { StreamsRepository } from './streams.repository';

/** A stand-in for the data source and a transaction: records each statement and its values. */
function recorder(rows: unknown[] = []) {
  const calls: { sql: string; values: unknown[] }[] = [];
  const query = (sql: string, values: unknown[] = []) => {
    calls.push({ sql: sql.replace(/\s+/g, ' ').trim(), values });
    return Promise.resolve(rows);
  };
  const repository = new StreamsRepository({ tx: { query } } as unknown as Db);
  return { calls, repository };
}

const config = toStreamConfiguration({
  scalingPolicy: {
    type: 'BY_RATE_IN_EVENTS_PER_SEC',
    targetRate: 100,
    scaleFactor: 2,
    minSegments: 3,
  },
  retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10, maxValue: 20 },
  streamTags: ['a', 'b'],
  rolloverSizeBytes: 1024,
  timestampAggregationTimeout: 7,
});
const columns = configurationColumns(config);

describe('StreamsRepository', () => {
  it('inserts a stream and its companion in one statement, values in column order', async () => {
    const { calls, repository } = recorder();
    await repository.insert('scope', [
      { name: 's', ownerStream: null, ownerReaderGroup: 'g', columns },
      {
        name: '_MARKs',
        ownerStream: 's',
        ownerReaderGroup: null,
        columns: configurationColumns(INTERNAL_STREAM_CONFIGURATION),
      },
    ]);
    expect(calls).toHaveLength(1);
    const [{ sql, values }] = calls;
    expect(sql).toContain(
      'INSERT INTO streams (scope_name, name, owner_stream, owner_reader_group, state, scaling_type, min_segments, target_rate, scale_factor, retention_type, retention_min, retention_max, tags, rollover_size_bytes, timestamp_aggregation_timeout)',
    );
    expect(sql).toContain('($1, $2, $3,');
    expect(sql).toContain('$15), ($16,');
    expect(sql).toMatch(/\$30\) RETURNING .* AS created, version::text AS version$/);
    expect(values).toEqual([
      ...['scope', 's', null, 'g', 'ACTIVE', 'BY_RATE_IN_EVENTS_PER_SEC', 3, 100, 2],
      ...['LIMITED_SIZE_MB', 10, 20, ['a', 'b'], 1024, 7],
      ...['scope', '_MARKs', 's', null, 'ACTIVE', 'FIXED_NUM_SEGMENTS', 1, null, null],
      ...[null, null, null, [], 0, 0],
    ]);
  });

  it('replaces every configuration column of a stream in one update', async () => {
    const { calls, repository } = recorder([{ name: 's', created: '1', version: '2' }]);
    await expect(repository.updateConfiguration('scope', 's', config)).resolves.toEqual({
      created: '1',
      version: '2',
    });
    expect(calls).toEqual([
      {
        sql:
          'WITH changed AS (' +
          'UPDATE streams SET scaling_type = $3, min_segments = $4, target_rate = $5, scale_factor = $6, ' +
          'retention_type = $7, retention_min = $8, retention_max = $9, tags = $10, ' +
          'rollover_size_bytes = $11, timestamp_aggregation_timeout = $12, ' +
          'version = version + 1, updated_at = now() ' +
          'WHERE scope_name = $1 AND name = $2 RETURNING name, ' +
          '(extract(epoch FROM created_at) * 1000000)::bigint::text AS created, ' +
          'version::text AS version) SELECT * FROM changed',
        values: [
          'scope',
          's',
          'BY_RATE_IN_EVENTS_PER_SEC',
          3,
          100,
          2,
          'LIMITED_SIZE_MB',
          10,
          20,
          ['a', 'b'],
          1024,
          7,
        ],
      },
    ]);
  });

  it('lists with one query, passing the tag only to a tag filter', async () => {
    const { calls, repository } = recorder();
    const first = { take: 1001 };
    await repository.findByScope('scope', { kind: 'user' }, first);
    await repository.findByScope('scope', { kind: 'internal' }, first);
    await repository.findByScope('scope', { kind: 'tag', tag: 't' }, first);
    expect(calls.map((c) => c.values)).toEqual([
      ['scope', 1001],
      ['scope', 1001],
      ['scope', 't', 1001],
    ]);
    const sql = calls.map((c) => c.sql.replace(/\s+/g, ' '));
    expect(sql[0]).toMatch(
      /WHERE scope_name = \$1 AND name NOT LIKE '\\_%' AND TRUE ORDER BY name LIMIT \$2$/,
    );
    expect(sql[1]).toMatch(
      /WHERE scope_name = \$1 AND name LIKE '\\_%' AND TRUE ORDER BY name LIMIT \$2$/,
    );
    expect(sql[2]).toMatch(
      /name NOT LIKE '\\_%' AND tags @> ARRAY\[\$2::text\] AND TRUE ORDER BY name LIMIT \$3$/,
    );
  });

  it('reads a page after a name, one row more than the page', async () => {
    const { calls, repository } = recorder();
    await repository.findByScope('scope', { kind: 'tag', tag: 't' }, { after: 'm', take: 11 });
    expect(calls[0].values).toEqual(['scope', 't', 'm', 11]);
    expect(calls[0].sql.replace(/\s+/g, ' ')).toMatch(
      /tags @> ARRAY\[\$2::text\] AND name > \$3 ORDER BY name LIMIT \$4$/,
    );
  });

  it('reads a row into a stream, int64 columns as numbers', async () => {
    const row = {
      scopeName: 'scope',
      name: 's',
      state: 'ACTIVE',
      scalingType: 'FIXED_NUM_SEGMENTS',
      minSegments: 1,
      targetRate: null,
      scaleFactor: null,
      retentionType: 'LIMITED_DAYS',
      retentionMin: '1440',
      retentionMax: null,
      tags: [],
      rolloverSizeBytes: '9007199254740991',
      timestampAggregationTimeout: '0',
    };
    const { repository } = recorder([{ ...row, created: '1700000000000000', version: '12' }]);
    await expect(repository.findOne('scope', 's')).resolves.toEqual({
      scopeName: 'scope',
      name: 's',
      state: 'ACTIVE',
      configuration: {
        scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
        retention: { type: 'LIMITED_DAYS', min: 1440 },
        tags: [],
        rolloverSizeBytes: Number.MAX_SAFE_INTEGER,
        timestampAggregationTimeout: 0,
      },
      revision: { created: '1700000000000000', version: '12' },
    });
  });
});

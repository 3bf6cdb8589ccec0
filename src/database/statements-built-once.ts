import type {
  DataSource,
  EntityManager,
  EntityMetadata,
  EntityTarget,
  ObjectLiteral,
  QueryBuilder,
  SelectQueryBuilder,
} from 'typeorm';
import type { QueryResultRow } from 'pg';
import { AFTER, byKeyset, type Keyset } from './keyset';
import { queryOnConnection } from './on-connection';
import { portalBatches } from './portal-batches';

type ColumnMetadata = EntityMetadata['columns'][number];

/**
 * Statements of the hottest paths (the read of every GET of a resource, the inserts of every
 * create and of every change's audit row), written once from an entity's metadata instead of
 * by the repository API on every call. The API builds a statement's SQL, its aliases and its
 * parameter list anew each time: about 45 µs of CPU per statement on two cores against 5 for
 * these (BENCHMARKS.md, "The data layer's cost").
 * Values and rows go through the driver and the columns' transformers as the API's do, so an
 * entity means the same whichever way it was read or written; everything else uses the API.
 */

/** What {@link ReadByKey} reads besides its key: a row lock, the columns (all by default). */
interface ReadOptions<P> {
  /** The row lock the read takes until the transaction ends (`FOR UPDATE`), if any. */
  lock?: 'FOR UPDATE' | 'FOR NO KEY UPDATE' | 'FOR SHARE' | 'FOR KEY SHARE';
  /**
   * The properties to read, when not all: a time column parsed into a `Date` costs more than
   * the rest of a small row, and is read only where it is shown.
   */
  properties?: readonly P[];
}

/** A read of at most one row by equal key columns, as an entity. */
export class ReadByKey<E extends ObjectLiteral, P extends keyof E & string = keyof E & string> {
  /** The statement and its hydration, per data source (a test may open several). */
  private readonly built = new WeakMap<DataSource, { sql: string; hydration: Hydration<E> }>();

  /** `key`: the properties compared, in the order of the values given to {@link one}. */
  constructor(
    private readonly target: EntityTarget<E>,
    private readonly key: readonly (keyof E & string)[],
    private readonly options: ReadOptions<P> = {},
  ) {}

  /** The row whose key columns equal `values`, in the manager's transaction if any. */
  async one(manager: EntityManager, values: readonly unknown[]): Promise<Pick<E, P> | undefined> {
    const { sql, hydration } = this.builtFor(manager.dataSource);
    const answer = await queryOnConnection<Record<string, unknown>>(manager, sql, values);
    const row = answer.rows[0];
    return row === undefined ? undefined : hydration.entity(row);
  }

  private builtFor(dataSource: DataSource): { sql: string; hydration: Hydration<E> } {
    let built = this.built.get(dataSource);
    if (built === undefined) {
      const metadata = dataSource.getMetadata(this.target);
      const { properties, lock } = this.options;
      const columns = properties
        ? properties.map((property) => columnOf(metadata, property))
        : metadata.columns;
      const sql = selectByKey(metadata, columns, this.key, lock);
      built = { sql, hydration: new Hydration<E>(dataSource.driver, metadata, columns) };
      this.built.set(dataSource, built);
    }
    return built;
  }
}

const KEPT_ROW_COUNTS = 4;

/** An insert of rows that each give the same properties, answering what `returning` selects. */
export class InsertRows<E extends ObjectLiteral, P extends keyof E & string> {
  /** The SQL by number of rows, kept for the few counts a create writes (one or two). */
  private readonly sql = new Map<number, string>();

  constructor(
    private readonly target: EntityTarget<E>,
    private readonly properties: readonly P[],
    private readonly returning?: string,
  ) {}

  async run<R = unknown>(manager: EntityManager, rows: readonly Pick<E, P>[]): Promise<R[]> {
    const metadata = manager.dataSource.getMetadata(this.target);
    const columns = this.properties.map((property) => columnOf(metadata, property));
    let sql = this.sql.get(rows.length);
    if (sql === undefined) {
      sql = insertOf(metadata, columns, rows.length, this.returning);
      if (rows.length <= KEPT_ROW_COUNTS) this.sql.set(rows.length, sql);
    }
    const { driver } = manager.dataSource;
    const values = rows.flatMap((row) =>
      columns.map((column, i): unknown =>
        driver.preparePersistentValue(row[this.properties[i]], column),
      ),
    );
    return (await queryOnConnection<R & QueryResultRow>(manager, sql, values)).rows;
  }
}

/**
 * An update of the given properties (and of what `also` sets, SQL such as `version = version +
 * 1`) in the rows that `where` selects, answering what `returning` selects. `where` is SQL whose
 * placeholders `$1`, `$2`, ... stand for the values given to {@link run} after the properties'.
 */
export class UpdateRows<E extends ObjectLiteral, P extends keyof E & string> {
  private sql?: string;

  constructor(
    private readonly target: EntityTarget<E>,
    private readonly properties: readonly P[],
    private readonly change: { also: string; where: string; returning: string },
  ) {}

  async run<R = unknown>(
    manager: EntityManager,
    set: Pick<E, P>,
    whereValues: readonly unknown[],
  ): Promise<R[]> {
    const metadata = manager.dataSource.getMetadata(this.target);
    const columns = this.properties.map((property) => columnOf(metadata, property));
    this.sql ??= updateOf(metadata, columns, this.change);
    const { driver } = manager.dataSource;
    const values = columns.map((column, i): unknown =>
      driver.preparePersistentValue(set[this.properties[i]], column),
    );
    return (
      await queryOnConnection<R & QueryResultRow>(manager, this.sql, [...values, ...whereValues])
    ).rows;
  }
}

function updateOf(
  metadata: EntityMetadata,
  columns: readonly ColumnMetadata[],
  change: { also: string; where: string; returning: string },
): string {
  const set = columns.map((column, i) => `${quoted(column.databaseName)} = $${i + 1}`);
  // The where clause's own placeholders follow the set's.
  const where = change.where.replace(
    /\$(\d+)/g,
    (_, n: string) => `$${Number(n) + columns.length}`,
  );
  return (
    `UPDATE ${quoted(metadata.tableName)} SET ${[...set, change.also].join(', ')} ` +
    `WHERE ${where} RETURNING ${change.returning}`
  );
}

function columnOf(metadata: EntityMetadata, property: string): ColumnMetadata {
  const column = metadata.findColumnWithPropertyPath(property);
  if (!column) throw new Error(`${metadata.name} has no column ${property}`);
  return column;
}

const quoted = (name: string): string => `"${name}"`;

function selectByKey(
  metadata: EntityMetadata,
  read: readonly ColumnMetadata[],
  key: readonly string[],
  lock?: string,
): string {
  const table = quoted(metadata.tableName);
  const columns = read.map((column) =>
    column.isVirtualProperty && column.query
      ? `${column.query(table)} AS ${quoted(column.databaseName)}`
      : `${table}.${quoted(column.databaseName)}`,
  );
  const where = key.map(
    (property, i) => `${table}.${quoted(columnOf(metadata, property).databaseName)} = $${i + 1}`,
  );
  const locked = lock === undefined ? '' : ` ${lock}`;
  return `SELECT ${columns.join(', ')} FROM ${table} WHERE ${where.join(' AND ')} LIMIT 1${locked}`;
}

function insertOf(
  metadata: EntityMetadata,
  columns: readonly ColumnMetadata[],
  rowCount: number,
  returning: string | undefined,
): string {
  const names = columns.map((column) => quoted(column.databaseName)).join(', ');
  const rows = Array.from(
    { length: rowCount },
    (_, row) => `(${columns.map((_c, i) => `$${row * columns.length + i + 1}`).join(', ')})`,
  );
  const answer = returning === undefined ? '' : ` RETURNING ${returning}`;
  return `INSERT INTO ${quoted(metadata.tableName)} (${names}) VALUES ${rows.join(', ')}${answer}`;
}

/**
 * How rows of some columns become entities: each value through the driver and the column's
 * transformers, as TypeORM's own reads hydrate it. Prepared once per list of columns: a column
 * outside any embedded entity and relation (all of them, here) is set as its property, which is
 * what `ColumnMetadata.setEntityValue` does for it after looking at both.
 */
class Hydration<E extends ObjectLiteral> {
  private readonly plain: boolean[];

  constructor(
    private readonly driver: DataSource['driver'],
    private readonly metadata: EntityMetadata,
    private readonly columns: readonly ColumnMetadata[],
  ) {
    this.plain = columns.map((column) => !column.embeddedMetadata && !column.relationMetadata);
  }

  entity(row: Record<string, unknown>): E {
    const { driver, columns, plain } = this;
    const entity = this.metadata.create() as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i];
      const value: unknown = driver.prepareHydratedValue(row[column.databaseName], column);
      if (plain[i]) entity[column.propertyName] = value;
      else column.setEntityValue(entity, value);
    }
    return entity as E;
  }
}

/**
 * Column types of the entities whose values TypeORM's Postgres driver hands on as `pg` parsed
 * them: its `prepareHydratedValue` converts none of them, so a column of one of these types
 * without a transformer needs no hydrating. A test holds the driver to it for every such column
 * of every entity (test/statements-built-once.e2e-spec.ts); a type no entity uses is left out,
 * and hydrated, since nothing would hold the driver to it.
 */
const PARSED_AS_READ: ReadonlySet<unknown> = new Set([
  'text',
  'integer',
  'bigint',
  'double precision',
  'jsonb',
  'bytea',
]);

/** True when the driver or a transformer changes what `pg` parsed of the column. */
export const needsHydrating = (column: ColumnMetadata): boolean =>
  column.transformer !== undefined || !PARSED_AS_READ.has(column.type);

/**
 * The rows a query of the query builder's selects, with the columns of `properties` alone,
 * each named by its property and hydrated where it is: for lists of many rows (a streamed list
 * reads 1,000 at a time), where parsing rows costs the service more than anything else
 * (BENCHMARKS.md, "The data layer's cost"). Only the columns the driver or a transformer
 * converts are converted (in a list of streams, four of thirteen), and no entity is made per
 * row: with one, a 100,000-stream list cost 1.5 s of CPU against 1.34 without.
 * So a row is its entity's properties, not an instance of its class. The query's conditions,
 * order and limit are the builder's.
 */
export async function manyOf<E extends ObjectLiteral, P extends keyof E & string>(
  query: SelectQueryBuilder<E>,
  properties: readonly P[],
): Promise<Pick<E, P>[]> {
  const read = new ReadProperties(query, properties);
  return read.hydrated<Pick<E, P>>(await query.getRawMany<Record<string, unknown>>());
}

/** The columns of `properties` selected by a query, and how its rows are hydrated ({@link manyOf}). */
class ReadProperties {
  private readonly converted: ColumnMetadata[];
  private readonly driver: DataSource['driver'];

  constructor(query: SelectQueryBuilder<ObjectLiteral>, properties: readonly string[]) {
    const { alias } = query;
    const metadata = query.expressionMap.mainAlias!.metadata;
    const columns = properties.map((property) => ownColumnOf(metadata, property));
    columns.forEach((column, i) => {
      const expression =
        column.isVirtualProperty && column.query
          ? column.query(alias)
          : `${alias}.${quoted(column.databaseName)}`;
      if (i === 0) query.select(expression, column.propertyName);
      else query.addSelect(expression, column.propertyName);
    });
    this.converted = columns.filter(needsHydrating);
    this.driver = query.connection.driver;
  }

  hydrated<R>(rows: Record<string, unknown>[]): R[] {
    const { converted, driver } = this;
    for (const row of rows) {
      for (const column of converted) {
        row[column.propertyName] = driver.prepareHydratedValue(row[column.propertyName], column);
      }
    }
    return rows as R[];
  }
}

/**
 * A list's keyset read ({@link byKeyset}, with {@link manyOf}'s columns and rows), its SQL
 * written by the query builder once for a first batch or page and once for one after a
 * position, with the limit a parameter of both. A whole list of 100,000 streams is read in 100
 * batches: built each time, TypeORM wrote the same statement 100 times (BENCHMARKS.md, "The data
 * layer's cost").
 */
export class KeysetBuiltOnce<
  E extends ObjectLiteral,
  K extends keyof E & string,
  P extends string,
> {
  /** Per data source (a test may open several): the read from the start, and after a position. */
  private readonly built = new WeakMap<DataSource, Map<boolean, KeysetStatement>>();

  /**
   * @param build the query without order or limit, its values named by `parameters`
   * @param column the keyset's column, an `alias.property` path
   */
  constructor(
    private readonly build: (manager: EntityManager) => SelectQueryBuilder<E>,
    private readonly column: string,
    private readonly properties: readonly K[],
    private readonly parameters: readonly P[],
  ) {}

  async rows<Position>(
    manager: EntityManager,
    values: Record<P, unknown>,
    keyset: Keyset<Position>,
  ): Promise<Pick<E, K>[]> {
    const { sql, values: sent, read } = this.sent(this.statementsFor(manager), values, keyset);
    const answer = await queryOnConnection(manager, sql, sent);
    return read.hydrated<Pick<E, K>>(answer.rows);
  }

  /** The statements from the start and after a position, built on first use for `manager`'s source. */
  private statementsFor(manager: EntityManager): Map<boolean, KeysetStatement> {
    let statements = this.built.get(manager.connection);
    if (!statements) {
      statements = new Map([false, true].map((after) => [after, this.statement(manager, after)]));
      this.built.set(manager.connection, statements);
    }
    return statements;
  }

  /** The statement for a keyset, and its values: `take: null` reads all (`LIMIT NULL`). */
  private sent<Position>(
    statements: Map<boolean, KeysetStatement>,
    values: Record<P, unknown>,
    keyset: { after?: Position; take: number | null },
  ): { sql: string; values: unknown[]; read: ReadProperties } {
    const { sql, order, read } = statements.get(keyset.after !== undefined)!;
    const sent = order.map((name) => (name === AFTER ? keyset.after : values[name as P]));
    return { sql, values: [...sent, keyset.take], read };
  }

  /**
   * All the rows the query selects, `size` at a time, read through one portal (a few when the
   * reader is slow: `portal-batches.ts`); `positionOf` is a row's value of the keyset's column.
   */
  batches<Position>(
    manager: EntityManager,
    values: Record<P, unknown>,
    size: number,
    positionOf: (row: Pick<E, K>) => Position,
  ): AsyncGenerator<Pick<E, K>[]> {
    const statements = this.statementsFor(manager);
    const all = (after: Pick<E, K> | undefined) => {
      const keyset = { after: after === undefined ? undefined : positionOf(after), take: null };
      const { sql, values: sent } = this.sent(statements, values, keyset);
      return { sql, values: sent };
    };
    const { read } = statements.get(false)!;
    return portalBatches(manager, all, size, (rows) => read.hydrated<Pick<E, K>>(rows));
  }

  private statement(manager: EntityManager, after: boolean): KeysetStatement {
    // Any position: the built statement names it, and each read sends its own.
    const query = byKeyset(this.build(manager), this.column, after ? { after: '' } : undefined);
    const read = new ReadProperties(query, this.properties);
    const { sql, order } = builtOnce(query, [...this.parameters, AFTER]);
    return { sql: `${sql} LIMIT $${order.length + 1}`, order, read };
  }
}

interface KeysetStatement {
  sql: string;
  /** The parameters of the placeholders in turn; the limit is the last, after them. */
  order: string[];
  read: ReadProperties;
}

/**
 * A column that is a property of the entity's own, as `ColumnMetadata.setEntityValue` sets it:
 * not inside an embedded entity, nor a join column that only a relation declares, nor a
 * relation's name (which TypeORM resolves to its join column, under another name).
 */
function ownColumnOf(metadata: EntityMetadata, property: string): ColumnMetadata {
  const column = columnOf(metadata, property);
  if (column.propertyPath !== property || column.embeddedMetadata || column.isVirtual) {
    throw new Error(`${metadata.name}.${property} is not a column of the entity's own`);
  }
  return column;
}

/**
 * A query of the query builder's, for those the entity's columns alone cannot say (subqueries,
 * aggregates): the builder writes its SQL once, with its named parameters, and each call sends
 * that SQL with the values of the parameters, in the order the SQL names them.
 */
export class QueryBuiltOnce<P extends string> {
  private built?: { sql: string; order: P[] };

  constructor(
    private readonly build: (manager: EntityManager) => QueryBuilder<ObjectLiteral>,
    private readonly parameters: readonly P[],
  ) {}

  async rows<R extends QueryResultRow>(
    manager: EntityManager,
    values: Record<P, unknown>,
  ): Promise<R[]> {
    this.built ??= builtOnce(this.build(manager), this.parameters);
    const { sql, order } = this.built;
    const answer = await queryOnConnection<R>(
      manager,
      sql,
      order.map((name) => values[name]),
    );
    return answer.rows;
  }
}

/** The SQL of a query and, for each of its placeholders in turn, the parameter it stands for. */
function builtOnce<P extends string>(
  query: QueryBuilder<ObjectLiteral>,
  parameters: readonly P[],
): { sql: string; order: P[] } {
  // A distinct object per parameter: found again, by identity, in the values the SQL lists.
  const markers = parameters.map((name) => ({ name }));
  query.setParameters(Object.fromEntries(parameters.map((name, i) => [name, markers[i]])));
  const [sql, values] = query.getQueryAndParameters();
  const order = values.map((value) => {
    const at = markers.indexOf(value as { name: P });
    if (at < 0) throw new Error(`a parameter of "${sql}" is not one of ${parameters.join(', ')}`);
    return parameters[at];
  });
  return { sql, order };
}

/**
 * The write half of a fenced step: statements built from the values the
 * caller supplies (a drizzle table, rows, conditions), never from SQL text the
 * caller writes. `writeFenced` (./fenced-write.ts) runs them in ONE statement
 * behind the fence check.
 *
 * Guarantees
 * - Every INSERT and UPDATE sets the row's `lease` and `epoch` from the fence
 *   itself; a caller cannot supply them (the row types omit them), so a fenced
 *   table's database check always sees the epoch this step was granted.
 * - Only tables with `lease` and `epoch` columns can be inserted or updated
 *   (a type error otherwise). DELETE works on any table; the statement's own
 *   fence check covers it, and a table with leaseboard_fence_deletes() also
 *   refuses plain-SQL deletes.
 * - `call` runs a database function that takes the fence's lease and epoch
 *   as its first two arguments (supplied here, never by the caller) and
 *   checks them itself (leaseboard_fence) before it changes anything: the
 *   way to fence what no trigger sees, such as partition DDL. Only
 *   `leaseboard_*` functions can be named.
 * - Values travel as parameters (rows as one jsonb parameter), so the
 *   statement text depends only on the code path, never on a row's values.
 * Not guaranteed: that two statements of one step see each other's writes
 * (they share one snapshot, like any data-modifying CTEs), or that a row may
 * be touched by two of them (PostgreSQL refuses that).
 */
import { type Column, getTableColumns, getTableName, SQL, sql, type Table } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** A table whose rows carry the fence (see ./fence.ts for its migration). */
export type FencedTable = PgTable & { readonly lease: Column; readonly epoch: Column };

/** The columns a caller supplies for a row of `T`: all but the fence's own. */
// (`$inferInsert`, not InferInsertModel<T>: through a generic alias the latter loses its optional keys.)
export type RowOf<T extends FencedTable> = Omit<T['$inferInsert'], 'lease' | 'epoch'>;

/** A value, or an SQL expression (`w.now`, `w.excluded(col)`, drizzle's `sql`, `eq`…). */
export type Value<V> = V | SQL;

export type SetOf<T extends FencedTable> = { [K in keyof RowOf<T>]?: Value<RowOf<T>[K]> };

/** `RETURNING` columns by alias: table columns or typed expressions (`sql<boolean>\`…\``). */
export type Selection = Record<string, Column | SQL>;

type Data<C> = C extends Column ? (C['_']['notNull'] extends true ? C['_']['data'] : C['_']['data'] | null) : C extends SQL<infer T> ? T : never;
/** A returned row, as JSON brings it back (bigint columns in number mode arrive as numbers). */
export type Returned<S extends Selection> = { [K in keyof S]: Data<S[K]> };

export interface FencedStatement<Row = never> {
  /** Table name, for the rejection log. */
  readonly table: string;
  /** The data-modifying statement, ending in RETURNING. */
  readonly dml: SQL;
  readonly returnsRows: boolean;
  /** Phantom: the returned row type. */
  readonly _row?: Row;
}

export type OnConflict<T extends FencedTable> =
  { target: readonly Column[]; action: 'nothing' } | { target: readonly Column[]; action: 'update'; set: SetOf<T>; where?: SQL };

export interface FencedWrites {
  /** The database time of this statement's fence check; inside the epoch's tenure. */
  readonly now: SQL<string>;
  /** `excluded.<column>` in an ON CONFLICT … DO UPDATE. */
  excluded(column: Column): SQL;
  insert<T extends FencedTable, K extends keyof RowOf<T> = never, S extends Selection = Record<never, never>>(
    table: T,
    rows: readonly Omit<RowOf<NoInfer<T>>, K>[],
    options?: { same?: { [P in K]: Value<RowOf<NoInfer<T>>[P]> }; onConflict?: OnConflict<NoInfer<T>>; returning?: S },
  ): FencedStatement<Returned<S>>;
  update<T extends FencedTable, S extends Selection = Record<never, never>>(
    table: T,
    set: SetOf<NoInfer<T>>,
    where: SQL,
    options?: { returning?: S },
  ): FencedStatement<Returned<S>>;
  delete<T extends PgTable, S extends Selection = Record<never, never>>(table: T, where: SQL, options?: { returning?: S }): FencedStatement<Returned<S>>;
  /** `SELECT fn(lease, epoch, ...args) AS result` for a fenced database function (see the module header); `resource` names it in the rejection log. */
  call<R>(fn: string, args: readonly SQL[], options: { resource: string }): FencedStatement<{ result: R }>;
}

/** The fence columns as the fenced statement's own CTE `fence` provides them (./fenced-write.ts). */
const FENCE_LEASE = sql`(SELECT lease FROM fence)`;
const FENCE_EPOCH = sql`(SELECT epoch FROM fence)`;
const FENCE_AT = sql<string>`(SELECT at FROM fence)`;

const RECORD_TYPES: Record<string, string> = { serial: 'integer', bigserial: 'bigint', smallserial: 'smallint' };

function columnsOf(table: Table): Record<string, Column> {
  return getTableColumns(table) as Record<string, Column>;
}

function column(table: Table, key: string): Column {
  const found = columnsOf(table)[key];
  if (!found) throw new TypeError(`fenced write: ${getTableName(table)} has no column ${key}`);
  return found;
}

const list = (parts: Parameters<typeof sql.join>[0]) => sql.join(parts, sql`, `);

function assignments(table: Table, set: Record<string, unknown>): SQL[] {
  return Object.entries(set)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const target = column(table, key);
      return sql`${sql.identifier(target.name)} = ${value instanceof SQL ? value : sql.param(value, target)}`;
    });
}

function returningClause(selection: Selection | undefined): { clause: SQL; returnsRows: boolean } {
  const entries = Object.entries(selection ?? {});
  if (entries.length === 0) return { clause: sql`RETURNING NULL`, returnsRows: false };
  return { clause: sql`RETURNING ${list(entries.map(([alias, expr]) => sql`${expr} AS ${sql.identifier(alias)}`))}`, returnsRows: true };
}

function statement<Row>(table: Table, dml: SQL, returnsRows: boolean): FencedStatement<Row> {
  return Object.freeze({ table: getTableName(table), dml, returnsRows });
}

function insertRows(table: FencedTable, rows: readonly Record<string, unknown>[], same: Record<string, unknown>): SQL {
  const keys = rows.length > 0 ? Object.keys(rows[0]!).filter((key) => rows[0]![key] !== undefined) : [];
  for (const row of rows) {
    const extra = Object.keys(row).filter((key) => row[key] !== undefined && !keys.includes(key));
    if (extra.length > 0 || keys.some((key) => row[key] === undefined)) {
      throw new TypeError(`fenced write: every row of ${getTableName(table)} must set the same columns (${keys.join(', ')})`);
    }
  }
  const cols = keys.map((key) => column(table, key));
  const json = rows.map((row) => Object.fromEntries(cols.map((col, i) => [col.name, col.mapToDriverValue(row[keys[i]!])])));
  const sameCols = Object.entries(same).map(([key, value]) => ({ col: column(table, key), value }));
  const targets = [...cols, ...sameCols.map((s) => s.col)].map((col) => sql.identifier(col.name));
  const values = [
    ...cols.map((col) => sql`v.${sql.identifier(col.name)}`),
    ...sameCols.map(({ col, value }) => (value instanceof SQL ? value : sql.param(value, col))),
  ];
  const record = list(cols.map((col) => sql`${sql.identifier(col.name)} ${sql.raw(RECORD_TYPES[col.getSQLType()] ?? col.getSQLType())}`));
  const source = cols.length > 0 ? sql`jsonb_to_recordset(${JSON.stringify(json)}::jsonb) AS v(${record})` : sql`generate_series(1, ${rows.length}::int) AS v`;
  return sql`INSERT INTO ${table} (${list([...targets, sql.identifier('lease'), sql.identifier('epoch')])})
    SELECT ${list([...values, FENCE_LEASE, FENCE_EPOCH])} FROM ${source}`;
}

function conflictClause<T extends FencedTable>(table: T, conflict: OnConflict<T> | undefined): SQL {
  if (!conflict) return sql``;
  const target = sql`(${list(conflict.target.map((col) => sql.identifier(col.name)))})`;
  if (conflict.action === 'nothing') return sql` ON CONFLICT ${target} DO NOTHING`;
  const set = [...assignments(table, conflict.set), sql`"lease" = excluded."lease"`, sql`"epoch" = excluded."epoch"`];
  return sql` ON CONFLICT ${target} DO UPDATE SET ${list(set)}${conflict.where ? sql` WHERE ${conflict.where}` : sql``}`;
}

/** The statement builder handed to a fenced step's `write`. It holds no connection. */
export const fencedWrites: FencedWrites = Object.freeze({
  now: FENCE_AT,
  excluded: (col: Column) => sql`excluded.${sql.identifier(col.name)}`,
  insert(table, rows, options = {}) {
    const { clause, returnsRows } = returningClause(options.returning);
    const dml = sql`${insertRows(table, rows as readonly Record<string, unknown>[], (options.same ?? {}) as Record<string, unknown>)}${conflictClause(table, options.onConflict)} ${clause}`;
    return statement(table, dml, returnsRows);
  },
  update(table, set, where, options = {}) {
    const { clause, returnsRows } = returningClause(options.returning);
    const all = [...assignments(table, set as Record<string, unknown>), sql`"lease" = ${FENCE_LEASE}`, sql`"epoch" = ${FENCE_EPOCH}`];
    return statement(table, sql`UPDATE ${table} SET ${list(all)} WHERE ${where} ${clause}`, returnsRows);
  },
  delete(table, where, options = {}) {
    const { clause, returnsRows } = returningClause(options.returning);
    return statement(table, sql`DELETE FROM ${table} WHERE ${where} ${clause}`, returnsRows);
  },
  call(fn, args, { resource }) {
    if (!/^leaseboard_[a-z_]{1,50}$/.test(fn)) throw new TypeError(`fenced write: ${fn} is not a leaseboard_* function`);
    const dml = sql`SELECT ${sql.identifier(fn)}(${list([FENCE_LEASE, FENCE_EPOCH, ...args])}) AS result`;
    return Object.freeze({ table: resource, dml, returnsRows: true });
  },
} satisfies FencedWrites);

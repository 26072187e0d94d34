/**
 * `writeFenced(db, fence, build)`: a fenced step's statements, run as ONE SQL
 * statement behind the fence.
 *
 *   WITH fence AS (SELECT lease, epoch, clock_timestamp() AS at),
 *        w0 AS (INSERT … RETURNING …), w1 AS (UPDATE … RETURNING …)
 *   SELECT (SELECT … FROM w0), (SELECT … FROM w1), (SELECT leaseboard_fence(lease, epoch, resource) FROM fence), at
 *
 * Guarantees
 * - The fence is checked even when the statements touch no row (an explicit
 *   check after the writes, under the lease row's share lock), and the
 *   database's triggers check every written row (./fence.ts). A refusal rolls
 *   the whole statement back: all of the step's writes, or none.
 * - Rows carry `fence.at` (`w.now`), a time inside the epoch's tenure: after
 *   the grant (the fence came from it), before the check that found the
 *   epoch current, unexpired and unreleased and held it until the commit.
 * - A refusal returns `{ kind: 'rejected' }` with the reason and the current
 *   epoch, after logging it to stale_write_rejections in its own statement.
 *   A write whose outcome cannot be known (timeout, lost connection) returns
 *   `{ kind: 'unknown' }`; one that never reached a server (no connection
 *   made, or one closed before its session began: ./errors.ts) returns
 *   `{ kind: 'not_sent' }` — nothing written, nothing to suspect. Anything else throws LeaseStoreError (with cause),
 *   its message naming the SQLSTATE (40P01: a deadlock).
 * - Only a fence made by `fenceFor` is accepted (checked at run time too).
 * Not guaranteed: renewals never wait — a renewal (or takeover) waits while a
 * fenced statement holds the share lock, from the end of its writing to its
 * commit (bench:lease measures it). Keep `db` a pool or a connection outside a
 * transaction: in one, the lock lasts until that transaction ends, and the
 * rejection log would be rolled back with the write.
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { traced } from '../telemetry/span';
import { LeaseStoreError, statementOutcome } from './errors';
import { type Fence, FENCE_MISSING, isIssuedFence, type Rejection, type RejectionReason, logRejection, rejectionOf } from './fence';
import { type FencedStatement, type FencedWrites, fencedWrites } from './fenced-statements';

export interface Written<Row> {
  /** Rows the statement wrote (inserted, updated or deleted). */
  count: number;
  /** Its RETURNING rows (empty when it asked for none). */
  rows: Row[];
}

type Results<S extends readonly FencedStatement<unknown>[]> = { [K in keyof S]: S[K] extends FencedStatement<infer R> ? Written<R> : never };

export type FencedResult<R> =
  | { kind: 'written'; at: Date; results: R }
  | { kind: 'rejected'; reason: RejectionReason; currentEpoch: number | null; resource: string; at: Date; logged: boolean }
  | { kind: 'not_sent'; cause: unknown }
  | { kind: 'unknown'; cause: unknown };

const dialect = new PgDialect();

function render(fence: Fence, statements: readonly FencedStatement<unknown>[]): { text: string; values: unknown[]; resource: string } {
  const resource = [...new Set(statements.map((s) => s.table))].join(',') || 'none';
  const ctes = statements.map((s, i) => sql`, ${sql.identifier(`w${i}`)} AS (${s.dml})`);
  const outputs = statements.map((s, i) => {
    const name = sql.identifier(`w${i}`);
    return s.returnsRows ? sql`(SELECT coalesce(json_agg(${name}), '[]'::json) FROM ${name}), ` : sql`(SELECT count(*)::int FROM ${name}), `;
  });
  // The outputs are evaluated in order: the writes first, the check last, so the
  // lease row is share-locked only from the end of the writing to the commit.
  const query: SQL = sql`WITH fence AS (
  SELECT l.lease, l.epoch, clock_timestamp() AS at FROM (SELECT ${fence.lease}::text AS lease, ${fence.epoch}::bigint AS epoch) l
)${sql.join(ctes)}
SELECT ${sql.join(outputs)}(SELECT leaseboard_fence(lease, epoch, ${resource}) FROM fence) AS checked_at, (SELECT at FROM fence) AS at`;
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { text, values: params, resource };
}

/**
 * Runs the statements `build` returns as one fenced statement.
 * Example: `writeFenced(pool, fence, (w) => [w.insert(invoices, rows, { same: { writtenAt: w.now } })])` (any table with `lease` and `epoch` columns that its migration fenced: 0004_fence_triggers).
 */
export async function writeFenced<const S extends readonly FencedStatement<unknown>[]>(
  db: Pick<pg.Pool, 'query'>,
  fence: Fence,
  build: (w: FencedWrites) => S,
): Promise<FencedResult<Results<S>>> {
  if (!isIssuedFence(fence)) throw new LeaseStoreError('fenced write', 'not a fence issued by fenceFor (a current grant is required)');
  const statements = build(fencedWrites);
  return traced('fenced write', { 'leaseboard.scheduler': fence.lease, 'leaseboard.statements': statements.length }, () => write(db, fence, statements), {
    resultAttributes: (result) => ({ 'leaseboard.outcome': result.kind }),
  });
}

async function write<const S extends readonly FencedStatement<unknown>[]>(
  db: Pick<pg.Pool, 'query'>,
  fence: Fence,
  statements: S,
): Promise<FencedResult<Results<S>>> {
  const { text, values, resource } = render(fence, statements);
  let row: unknown[];
  try {
    // rowMode array: the outputs are positional (one per statement, the check's time, then `at`).
    const result = await db.query<unknown[]>({ text, values, rowMode: 'array' });
    row = result.rows[0]!;
  } catch (error) {
    const refused = rejectionOf(error);
    if (refused) {
      const rejection: Rejection = { ...refused, lease: fence.lease, attemptedEpoch: fence.epoch, resource: refused.resource || resource };
      const logged = await logRejection(db, rejection, refused.at);
      return { kind: 'rejected', reason: refused.reason, currentEpoch: refused.currentEpoch, resource: rejection.resource, at: refused.at, logged };
    }
    const outcome = statementOutcome(error);
    if (outcome === 'not_sent') return { kind: 'not_sent', cause: error };
    if (outcome === 'unknown') return { kind: 'unknown', cause: error };
    const code = (error as { code?: unknown }).code;
    // The SQLSTATE (never the message, which may quote values) says which failure it was: 40P01 a deadlock, 23505 a duplicate.
    const why = code === FENCE_MISSING ? ' (no fence)' : typeof code === 'string' ? ` (SQLSTATE ${code})` : '';
    throw new LeaseStoreError('fenced write', `${resource} write failed${why}`, { cause: error });
  }
  const outputs = row.slice(0, statements.length);
  const at = row[statements.length + 1] as Date;
  const results = statements.map((s, i) => {
    const output = outputs[i];
    return s.returnsRows ? { count: (output as unknown[]).length, rows: output as unknown[] } : { count: Number(output), rows: [] };
  });
  return { kind: 'written', at, results: results as Results<S> };
}

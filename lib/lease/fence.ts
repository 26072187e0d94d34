/**
 * Fenced writes: the ownership condition goes into the caller's own write
 * statement (as etcd's txn compare does), so check and write are one atomic
 * step on the database.
 *
 * Guarantees
 * - The write runs only if `epoch` is the lease's current epoch AND the lease
 *   is unreleased and unexpired at the database's `clock_timestamp()`; the
 *   lease row is share-locked for the statement, so no takeover commits
 *   between check and write. Every written row can carry `fence.at`, a write
 *   time inside the epoch's tenure.
 * - A refused write writes nothing, returns `{ kind: 'rejected' }` with the
 *   reason and the current epoch, and appends to stale_write_rejections in the
 *   same statement. It never silently succeeds.
 *
 * Not guaranteed: fencing of side effects outside this database (see
 * ./actions.ts, class `external`). An in-process check is not a fence.
 */
import type pg from 'pg';
import { LeaseStoreError, isUnknownOutcome } from './errors';

export interface Fence {
  readonly lease: string;
  readonly epoch: number;
  /** Resource kind for the rejection log, e.g. `plan_items`. No IDs. */
  readonly resource: string;
}

export type RejectionReason = 'stale_epoch' | 'expired' | 'released' | 'no_lease';

export type FencedResult<Row> =
  | { kind: 'written'; rows: Row[]; at: Date }
  | { kind: 'rejected'; reason: RejectionReason; currentEpoch: number | null; at: Date }
  | { kind: 'unknown'; cause: unknown };

/**
 * Parameters $1–$3 are the fence's (lease, epoch, resource); the caller's
 * placeholders start at $4 (`FENCE_PARAMS + 1`).
 */
export const FENCE_PARAMS = 3;

/**
 * Runs `write.ctes` only under a valid fence. `ctes` is one or more CTE
 * definitions (data-modifying ones allowed), the last named `w` and ending in
 * `RETURNING …`; each must select FROM the CTE `fence` (columns `epoch`,
 * `at`), so nothing is written when the fence fails. Example:
 * `w AS (INSERT INTO t (x, epoch, at) SELECT $4, fence.epoch, fence.at FROM fence RETURNING x)`.
 */
export async function fencedWrite<Row = Record<string, unknown>>(
  db: Pick<pg.Pool, 'query'>,
  fence: Fence,
  write: { ctes: string; params?: unknown[]; statementName?: string },
): Promise<FencedResult<Row>> {
  const text = `
WITH c AS (SELECT clock_timestamp() AS now),
  cur AS (SELECT epoch, released_at, expires_at FROM leases WHERE name = $1 FOR SHARE),
  fence AS (
    SELECT cur.epoch, c.now AS at FROM cur, c
    WHERE cur.epoch = $2::bigint AND cur.released_at IS NULL AND cur.expires_at > c.now
  ),
  ${write.ctes},
  rejected AS (
    INSERT INTO stale_write_rejections (lease, attempted_epoch, current_epoch, resource, reason, at)
    SELECT $1, $2::bigint, cur.epoch, $3,
      CASE WHEN cur.epoch IS NULL THEN 'no_lease' WHEN cur.epoch <> $2::bigint THEN 'stale_epoch'
           WHEN cur.released_at IS NOT NULL THEN 'released' ELSE 'expired' END,
      c.now
    FROM c LEFT JOIN cur ON true
    WHERE NOT EXISTS (SELECT 1 FROM fence)
    RETURNING reason, current_epoch
  )
SELECT (SELECT now FROM c) AS at,
       (SELECT coalesce(json_agg(w), '[]'::json) FROM w) AS rows,
       (SELECT reason FROM rejected) AS reason,
       (SELECT current_epoch FROM rejected) AS current_epoch`;
  try {
    const { rows } = await db.query<{ at: Date; rows: Row[]; reason: RejectionReason | null; current_epoch: string | null }>({
      name: write.statementName,
      text,
      values: [fence.lease, fence.epoch, fence.resource, ...(write.params ?? [])],
    });
    const result = rows[0]!;
    if (result.reason) {
      return { kind: 'rejected', reason: result.reason, currentEpoch: result.current_epoch === null ? null : Number(result.current_epoch), at: result.at };
    }
    return { kind: 'written', rows: result.rows, at: result.at };
  } catch (error) {
    if (isUnknownOutcome(error)) return { kind: 'unknown', cause: error };
    throw new LeaseStoreError('fenced write', `${fence.resource} write failed`, { cause: error });
  }
}

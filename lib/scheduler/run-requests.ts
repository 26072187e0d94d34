/**
 * "Run now" requests as the holder sees them (written by lib/actions/run-now.ts):
 * the pending one of a lease, and marking it taken once its occurrence is
 * claimed under the holder's fence.
 *
 * Guarantees: a request past its `expires_at` (database clock) or already
 * taken is never returned; marking taken changes only an untaken request,
 * so a request is taken at most once (a takeover's new holder may take one
 * the old holder claimed but did not mark: the occurrence's key is the same,
 * so it runs once). Non-guarantee: the key has whole seconds, like every
 * occurrence key; a request in the same second as a slot names that slot's
 * occurrence.
 */
import type pg from 'pg';

export interface PendingRunRequest {
  id: string;
  /** When it was asked: its occurrence's instant. */
  requestedAt: Date;
}

/** The pending request of `lease`, or null. */
export async function pendingRunRequest(db: Pick<pg.Pool, 'query'>, lease: string): Promise<PendingRunRequest | null> {
  const { rows } = await db.query<{ id: string; requested_at: Date }>(
    `SELECT id, requested_at FROM run_requests WHERE lease = $1 AND taken_at IS NULL AND expires_at > clock_timestamp()
     ORDER BY requested_at LIMIT 1`,
    [lease],
  );
  return rows[0] ? { id: rows[0].id, requestedAt: rows[0].requested_at } : null;
}

/** Marks the request taken by `epoch` for `occurrence` (nothing when already taken). */
export async function markRunRequestTaken(db: Pick<pg.Pool, 'query'>, request: PendingRunRequest, epoch: number, occurrence: string): Promise<void> {
  await db.query(`UPDATE run_requests SET taken_at = clock_timestamp(), taken_epoch = $2, occurrence = $3 WHERE id = $1 AND taken_at IS NULL`, [
    request.id,
    epoch,
    occurrence,
  ]);
}

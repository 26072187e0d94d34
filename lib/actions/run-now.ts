/**
 * "Run now": an operator asks the current holder of a lease to start an
 * occurrence now. The request is a row of run_requests (its own audit); the
 * holder's work loop (lib/scheduler/work-loop.ts) takes it at its next pass —
 * within one poll while idle, after the occurrence in flight otherwise — and
 * runs occurrence `lease@requested_at` under its lease, fenced like any other.
 *
 * Guarantees
 * - Refused, with nothing written: an unknown scheduler; a disabled one (the
 *   operator's choice wins, invariant 9); a lease nobody holds now (the
 *   answer says so: nothing is queued for a holder that may never come); a
 *   request while another is pending (at most one pending per scheduler;
 *   requests to one lease are serialised by an advisory lock).
 * - A request not taken by `expires_at` (RUN_NOW_EXPIRES_AFTER_MS after it,
 *   database clock) is expired: never run, shown as expired.
 * - Times are the database's; the request names the holder and epoch it
 *   asked, and the one that took it (a takeover in between: the new holder
 *   may take it, the occurrence's key stays the same, so it runs at most once).
 */
import type pg from 'pg';
import type { IdentifiedBy } from '../limits';

/** How long a request waits for the holder before it expires: a few polls and a short occurrence in flight, never forever. */
const RUN_NOW_EXPIRES_AFTER_MS = 120_000;

export interface RunRequest {
  requestedAt: Date;
  expiresAt: Date;
  holder: string;
  epoch: number;
  by: string;
  reason: string;
  takenAt: Date | null;
  takenEpoch: number | null;
  occurrence: string | null;
  state: 'pending' | 'taken' | 'expired';
}

export type RunNowResult =
  | { kind: 'requested'; request: RunRequest }
  | { kind: 'unknown_scheduler' }
  | { kind: 'disabled'; by: string; reason: string }
  | { kind: 'no_holder' }
  | { kind: 'already_pending'; request: RunRequest };

interface RequestRow {
  requested_at: Date;
  expires_at: Date;
  holder: string;
  epoch: string;
  by: string;
  reason: string;
  taken_at: Date | null;
  taken_epoch: string | null;
  occurrence: string | null;
  state: RunRequest['state'];
}

/** A request row with its state at the database's now. */
const REQUEST_COLUMNS = `requested_at, expires_at, holder, epoch, by, reason, taken_at, taken_epoch, occurrence,
  CASE WHEN taken_at IS NOT NULL THEN 'taken' WHEN expires_at > clock_timestamp() THEN 'pending' ELSE 'expired' END AS state`;

function requestOf(row: RequestRow): RunRequest {
  return {
    requestedAt: row.requested_at,
    expiresAt: row.expires_at,
    holder: row.holder,
    epoch: Number(row.epoch),
    by: row.by,
    reason: row.reason,
    takenAt: row.taken_at,
    takenEpoch: row.taken_epoch === null ? null : Number(row.taken_epoch),
    occurrence: row.occurrence,
    state: row.state,
  };
}

/** Ask the holder of `lease` to run now; `by` and `reason` are the operator's (checked by the caller). */
export async function requestRunNow(
  pool: Pick<pg.Pool, 'connect'>,
  lease: string,
  change: { by: string; reason: string; identifiedBy: IdentifiedBy },
): Promise<RunNowResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.run-now:' || $1, 0))", [lease]);
    const { rows } = await client.query<{
      known: boolean;
      intent: { disabled: boolean; by: string; reason: string } | null;
      held: { holder: string; epoch: string } | null;
    }>(
      `SELECT EXISTS (SELECT 1 FROM schedulers WHERE name = $1 UNION ALL SELECT 1 FROM leases WHERE name = $1) AS known,
              (SELECT json_build_object('disabled', disabled, 'by', by, 'reason', reason) FROM scheduler_intents WHERE lease = $1) AS intent,
              (SELECT json_build_object('holder', holder, 'epoch', epoch::text) FROM leases
                 WHERE name = $1 AND released_at IS NULL AND expires_at > clock_timestamp()) AS held`,
      [lease],
    );
    const { known, intent, held } = rows[0]!;
    const pending = await client.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM run_requests WHERE lease = $1 AND taken_at IS NULL AND expires_at > clock_timestamp()
       ORDER BY requested_at DESC LIMIT 1`,
      [lease],
    );
    const refusal: RunNowResult | null = !known
      ? { kind: 'unknown_scheduler' }
      : intent?.disabled
        ? { kind: 'disabled', by: intent.by, reason: intent.reason }
        : held === null
          ? { kind: 'no_holder' }
          : pending.rows[0]
            ? { kind: 'already_pending', request: requestOf(pending.rows[0]) }
            : null;
    if (refusal !== null || held === null) {
      await client.query('ROLLBACK');
      return refusal ?? { kind: 'no_holder' };
    }
    const inserted = await client.query<RequestRow>(
      `INSERT INTO run_requests (lease, requested_at, expires_at, holder, epoch, by, identified_by, reason)
       SELECT $1, c.now, c.now + $2::int * interval '1 millisecond', $3, $4::bigint, $5, $6, $7 FROM (SELECT clock_timestamp() AS now) c
       RETURNING ${REQUEST_COLUMNS}`,
      [lease, RUN_NOW_EXPIRES_AFTER_MS, held.holder, held.epoch, change.by, change.identifiedBy, change.reason],
    );
    await client.query('COMMIT');
    return { kind: 'requested', request: requestOf(inserted.rows[0]!) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The newest request for `lease` (null: none ever), with its state now. */
export async function latestRunRequest(db: Pick<pg.Pool, 'query'>, lease: string): Promise<RunRequest | null> {
  const { rows } = await db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM run_requests WHERE lease = $1 ORDER BY requested_at DESC LIMIT 1`, [lease]);
  return rows[0] ? requestOf(rows[0]) : null;
}

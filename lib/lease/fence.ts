/**
 * The fence: the proof a holder carries on every write, checked by the
 * resource itself — here, by the database (migration `fence_triggers`).
 *
 * How it works
 * - A fenced table's rows carry `lease` and `epoch`. Triggers refuse any
 *   statement that writes a row whose epoch is not its lease's current,
 *   unexpired, unreleased epoch, and any DELETE/TRUNCATE in a transaction that
 *   holds no such fence. They read the lease row FOR SHARE, so no takeover (and
 *   no renewal) commits between the check and the write: both wait for the
 *   writing statement to end. The whole statement fails; nothing is written.
 * - To make table T fenced — Leaseboard's own, or any table of yours in any
 *   schema: give it `lease text NOT NULL` and `epoch bigint NOT NULL`, and in
 *   its migration (run after Leaseboard's) `SELECT leaseboard_fence_table('T')`,
 *   schema-qualified where it is not on the search path
 *   (`leaseboard_fence_table('billing.invoices')`).
 *   For a table whose rows carry no fence but whose deletes must (a pruned
 *   log): `SELECT leaseboard_fence_deletes('T')`. Then write it only through
 *   `writeFenced` (./fenced-write.ts), which fills `lease` and `epoch` itself;
 *   the rejection log names the table without its schema.
 * - A refusal raises SQLSTATE `LB001` with a JSON detail; `writeFenced` maps it
 *   to `{ kind: 'rejected', reason, currentEpoch }` and logs it to
 *   stale_write_rejections in a statement of its own (the refused one rolled
 *   back). `LB002` (a DELETE without any fence) is a programming error: thrown.
 *
 * Guarantees: plain SQL that bypasses this library is held to the same rule —
 * a stale epoch writes nothing. Every row a fenced statement writes was
 * written inside its epoch's tenure (check and write in one transaction, under
 * the lease row's share lock).
 * Not guaranteed: fencing outside this database (see ../scheduler/job.ts,
 * class `external`); a superuser who disables triggers is not stopped.
 * Clock: the database's `clock_timestamp()` at the check.
 */
import type pg from 'pg';
import { REJECTION_REASONS, type RejectionReason } from '../../db/schema';
import type { Grant } from './authority';

declare const issued: unique symbol;

/**
 * Proof of one epoch of one lease. Only `fenceFor` makes one (the runtime's
 * tenure hands it to fenced steps while it trusts its grant), so an ad-hoc
 * `{ lease, epoch }` object is a type error. Holding a Fence proves nothing to
 * the database: it checks the epoch again on every write.
 */
export interface Fence {
  readonly lease: string;
  readonly epoch: number;
  readonly [issued]: true;
}

const issuedFences = new WeakSet<object>();

export function fenceFor(grant: Pick<Grant, 'name' | 'epoch'>): Fence {
  const fence = Object.freeze({ lease: grant.name, epoch: grant.epoch });
  issuedFences.add(fence);
  return fence as unknown as Fence;
}

/** The run-time half of the type's promise: true only for fences `fenceFor` made. */
export function isIssuedFence(value: unknown): value is Fence {
  return typeof value === 'object' && value !== null && issuedFences.has(value);
}

export type { RejectionReason };

export interface Rejection {
  lease: string;
  attemptedEpoch: number;
  /** The lease's epoch when refused; null when the lease never existed (or an external target did not say). */
  currentEpoch: number | null;
  reason: RejectionReason;
  /** What was refused: table names, or an external target's name. No IDs. */
  resource: string;
}

/** SQLSTATE of a write the fence refused. */
export const FENCE_REFUSED = 'LB001';
/** SQLSTATE of a DELETE/TRUNCATE on a fenced table with no fence at all. */
export const FENCE_MISSING = 'LB002';

/** The typed rejection inside a database error, or null when the error is something else. */
export function rejectionOf(error: unknown): (Rejection & { at: Date }) | null {
  const { code, detail } = (error ?? {}) as { code?: string; detail?: string };
  if (code !== FENCE_REFUSED || typeof detail !== 'string') return null;
  try {
    const parsed = JSON.parse(detail) as Record<string, unknown>;
    const reason = parsed.reason as RejectionReason;
    if (!(REJECTION_REASONS as readonly string[]).includes(reason)) return null;
    return {
      lease: String(parsed.lease ?? ''),
      attemptedEpoch: Number(parsed.attemptedEpoch ?? 0),
      currentEpoch: parsed.currentEpoch === null || parsed.currentEpoch === undefined ? null : Number(parsed.currentEpoch),
      reason,
      resource: String(parsed.resource ?? ''),
      at: new Date(String(parsed.at)),
    };
  } catch {
    return null;
  }
}

/**
 * Appends a rejection to stale_write_rejections in its own statement. `at` is
 * the database time of the refusal when known, else the log's own database time.
 * Returns false when the log could not be written (the refusal stands).
 */
export async function logRejection(db: Pick<pg.Pool, 'query'>, rejection: Rejection, at: Date | null = null): Promise<boolean> {
  try {
    await db.query({
      text: `INSERT INTO stale_write_rejections (lease, attempted_epoch, current_epoch, resource, reason, at)
             VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, clock_timestamp()))`,
      values: [rejection.lease, rejection.attemptedEpoch, rejection.currentEpoch, rejection.resource, rejection.reason, at],
    });
    return true;
  } catch {
    return false;
  }
}

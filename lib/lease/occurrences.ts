/**
 * Idempotent occurrences: one scheduled run has a deterministic key
 * (`lease@2026-11-30T16:00:00Z`); claim, resume, advance and complete are
 * keyed and fenced.
 *
 * Guarantees: a new leader claiming a running occurrence takes it over at the
 * stored cursor (resume), never restarts a completed one, and — with plan
 * items keyed (occurrence, document) — writes each item at most once however
 * often the occurrence is re-run. Every step is a fenced write (./fence.ts).
 * Not guaranteed: that an occurrence is ever completed (a frozen holder that
 * keeps its lease stalls it; the status service reports that).
 */
import type pg from 'pg';
import { type Fence, type FencedResult, fencedWrite } from './fence';

export { occurrenceKey } from './occurrence-key';

export type ClaimResult =
  { kind: 'claimed'; cursor: number; resumed: boolean } | { kind: 'already_completed' } | Exclude<FencedResult<never>, { kind: 'written' }>;

type Db = Pick<pg.Pool, 'query'>;

/** Claim (or resume at its cursor) the occurrence `key` under `fence`. */
export async function claimOccurrence(db: Db, fence: Fence, key: string, scheduledAt: Date): Promise<ClaimResult> {
  const result = await fencedWrite<{ cursor: number; resumed: boolean; state: string }>(db, fence, {
    statementName: 'occurrence_claim',
    ctes: `w AS (
      INSERT INTO occurrences AS o (key, lease, scheduled_at, state, epoch, claimed_at, cursor)
      SELECT $4, $1, $5::timestamptz, 'running', fence.epoch, fence.at, 0 FROM fence
      ON CONFLICT (key) DO UPDATE SET epoch = excluded.epoch, claimed_at = excluded.claimed_at
      WHERE o.state = 'running'
      RETURNING o.cursor::float8 AS cursor, o.state, (o.xmax <> 0) AS resumed
    )`,
    params: [key, scheduledAt.toISOString()],
  });
  if (result.kind !== 'written') return result;
  const row = result.rows[0];
  if (!row) return { kind: 'already_completed' };
  return { kind: 'claimed', cursor: Number(row.cursor), resumed: row.resumed };
}

/** Mark `key` completed (fenced; only a running occurrence). */
export async function completeOccurrence(db: Db, fence: Fence, key: string): Promise<FencedResult<{ key: string }>> {
  return fencedWrite<{ key: string }>(db, fence, {
    statementName: 'occurrence_complete',
    ctes: `w AS (
      UPDATE occurrences o SET state = 'completed', completed_at = fence.at, epoch = fence.epoch
      FROM fence WHERE o.key = $4 AND o.state = 'running'
      RETURNING o.key
    )`,
    params: [key],
  });
}

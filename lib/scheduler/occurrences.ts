/**
 * Idempotent occurrences: one scheduled run has a deterministic key
 * (`lease@2026-11-30T16:00:00Z`); claim, resume, advance and complete are
 * keyed, and every one is a fenced write (../lease/fenced-write.ts).
 *
 * Guarantees: a new leader claiming a running occurrence takes it over at the
 * stored step and cursor (resume), never restarts a completed one; a cursor
 * only moves forward within its step; with its output keyed (e.g. items
 * by occurrence and source row) a job writes each item at most once however
 * often the occurrence is re-run.
 * Not guaranteed: that an occurrence is ever completed (a frozen holder that
 * keeps its lease stalls it; the status service reports that).
 */
import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { occurrences } from '../../db/schema';
import { type Fence, type FencedResult, type FencedStatement, type FencedWrites, writeFenced } from '../lease';

export type ClaimResult =
  { kind: 'claimed'; step: number; cursor: number; resumed: boolean } | { kind: 'already_completed' } | Exclude<FencedResult<never>, { kind: 'written' }>;

type Db = Pick<pg.Pool, 'query'>;

const running = (key: string) => and(eq(occurrences.key, key), eq(occurrences.state, 'running'))!;

/** Claim (or resume at its step and cursor) the occurrence `key` under `fence`. */
export async function claimOccurrence(db: Db, fence: Fence, key: string, scheduledAt: Date): Promise<ClaimResult> {
  const result = await writeFenced(db, fence, (w) => [
    w.insert(occurrences, [{ key, scheduledAt: scheduledAt.toISOString(), state: 'running' as const, step: 0, cursor: 0 }], {
      same: { claimedAt: w.now },
      onConflict: {
        target: [occurrences.key],
        action: 'update',
        set: { claimedAt: w.excluded(occurrences.claimedAt) },
        where: eq(occurrences.state, 'running'),
      },
      returning: { step: occurrences.step, cursor: occurrences.cursor, resumed: sql<boolean>`(${occurrences}.xmax <> 0)` },
    }),
  ]);
  if (result.kind !== 'written') return result;
  const row = result.results[0].rows[0];
  if (!row) return { kind: 'already_completed' };
  return { kind: 'claimed', step: row.step, cursor: Number(row.cursor), resumed: row.resumed };
}

/** Moves the cursor of `step` forward to `next` (never back); part of the step's own fenced statement. */
export function advanceOccurrence(w: FencedWrites, key: string, step: number, next: number): FencedStatement<{ cursor: number }> {
  return w.update(occurrences, { cursor: sql`greatest(${occurrences.cursor}, ${next}::bigint)` }, and(running(key), eq(occurrences.step, step))!, {
    returning: { cursor: occurrences.cursor },
  });
}

/** Moves from `step` to the next one at cursor 0. */
export function nextOccurrenceStep(w: FencedWrites, key: string, step: number): FencedStatement<{ step: number }> {
  return w.update(occurrences, { step: step + 1, cursor: 0 }, and(running(key), eq(occurrences.step, step))!, { returning: { step: occurrences.step } });
}

/** Marks `key` completed (only a running occurrence). */
export function completeOccurrence(w: FencedWrites, key: string): FencedStatement<{ key: string }> {
  return w.update(occurrences, { state: 'completed', completedAt: w.now }, running(key), { returning: { key: occurrences.key } });
}

/** Marks `key` failed with the exit code of the command that ran it (only a running occurrence). */
export function failOccurrence(w: FencedWrites, key: string, exitCode: number): FencedStatement<{ key: string }> {
  return w.update(occurrences, { state: 'failed', exitCode, completedAt: w.now }, running(key), { returning: { key: occurrences.key } });
}

/**
 * The work loop of one tenure: find the occurrence due now (database clock),
 * claim or resume it, and plan it batch by batch until completed.
 *
 * Guarantees
 * - Every fenced step (claim, batch write, complete) starts only with a fence
 *   from `tenure.fence()`; a batch carries the fence it captured at its start.
 * - When the tenure ends the loop stops at once: no further step starts, and a
 *   batch waiting in its planning work is abandoned before its write.
 * - While frozen (fault drill) no batch starts; renewals and reports go on.
 * - When an operator has disabled the scheduler, no new occurrence starts;
 *   the one in flight finishes, then the tenure ends and the lease is released.
 * Not guaranteed: a write already begun before a pause is still sent after
 * it; the resource fence rejects it and it is counted in `writes.rejected`.
 */
import type pg from 'pg';
import { runAction } from '../lease/actions';
import type { Fence, FencedResult } from '../lease/fence';
import { readIntent } from '../lease/intent';
import { claimOccurrence, completeOccurrence, occurrenceKey } from '../lease/occurrences';
import type { Clock } from './clock';
import type { SchedulerConfig } from './config';
import { type EventSink, safeMessage, type WriteStats } from './events';
import { planExpiries } from './policy';
import { readDocumentBatchAction, writePlanItemsAction } from './retention';
import type { Tenure } from './tenure';

/** What the reporter reads: the occurrence in flight and its cursor. */
export interface WorkPosition {
  occurrence: string | null;
  cursor: number | null;
}

export interface WorkDeps {
  db: pg.Pool;
  config: SchedulerConfig;
  clock: Clock;
  emit: EventSink;
  position: WorkPosition;
  writes: WriteStats;
  /** The last occurrence this tenure saw completed: no need to claim it again. */
  completed: { key: string | null };
  /** Resolves at once when not frozen; otherwise when unfrozen or `signal` aborts. */
  waitUnfrozen(signal: AbortSignal): Promise<void>;
}

const RETRY_MS = 250;
/** While idle, look again this often (intent changes, the next slot). */
const IDLE_CHECK_MS = 1_000;

async function currentSlot(db: pg.Pool, everyMs: number): Promise<{ slotAt: Date; nextInMs: number }> {
  const { rows } = await db.query<{ slot_ms: string; now_ms: string }>({
    name: 'scheduler_current_slot',
    text: `SELECT (floor(extract(epoch FROM t) * 1000 / $1::int) * $1::int)::bigint AS slot_ms,
                  (extract(epoch FROM t) * 1000)::bigint AS now_ms
           FROM (SELECT clock_timestamp() AS t) c`,
    values: [everyMs],
  });
  const slotMs = Number(rows[0]!.slot_ms);
  return { slotAt: new Date(slotMs), nextInMs: slotMs + everyMs - Number(rows[0]!.now_ms) };
}

export async function runWorkLoop(tenure: Tenure, deps: WorkDeps): Promise<void> {
  const { clock, emit } = deps;
  const signal = tenure.signal;
  const track = <T>(result: FencedResult<T>, resource: string): result is Extract<FencedResult<T>, { kind: 'written' }> => {
    deps.writes.attempted++;
    if (result.kind === 'written') deps.writes.accepted++;
    if (result.kind === 'rejected') {
      deps.writes.rejected++;
      emit({ event: 'write_rejected', epoch: tenure.epoch, reason: result.reason, currentEpoch: result.currentEpoch, resource });
    }
    return result.kind === 'written';
  };

  while (!signal.aborted) {
    try {
      await runOnce(tenure, deps, track);
    } catch (error) {
      // A store error (connection refused, statement timeout…): nothing is assumed; try again.
      emit({ event: 'error', where: 'work', message: safeMessage(error) });
      await clock.sleep(RETRY_MS, signal);
    }
  }
}

type Track = <T>(result: FencedResult<T>, resource: string) => boolean;

/** One pass: claim the occurrence due now and plan it, or wait for the next slot. */
async function runOnce(tenure: Tenure, deps: WorkDeps, track: Track): Promise<void> {
  const { db, config, clock, emit, position } = deps;
  const signal = tenure.signal;
  await deps.waitUnfrozen(signal);
  const fence = tenure.fence('occurrences');
  if (!fence) return clock.sleep(RETRY_MS, signal);
  // An operator disabled this scheduler: start nothing new, hand the lease back (drain).
  const intent = await readIntent(db, config.lease.name);
  if (intent?.disabled) {
    emit({ event: 'draining', lease: config.lease.name, epoch: tenure.epoch, by: intent.by, reason: intent.reason });
    return tenure.end('drained');
  }
  const { slotAt, nextInMs } = await currentSlot(db, config.everyMs);
  const key = occurrenceKey(config.lease.name, slotAt);
  const idle = () => clock.sleep(Math.min(nextInMs + 50, IDLE_CHECK_MS), signal);
  if (key === deps.completed.key) return idle();
  const claim = await claimOccurrence(db, fence, key, slotAt);
  switch (claim.kind) {
    case 'already_completed':
      position.occurrence = null;
      position.cursor = null;
      deps.completed.key = key;
      return idle();
    case 'rejected':
      track(claim, 'occurrences');
      return clock.sleep(RETRY_MS, signal);
    case 'unknown':
      return clock.sleep(RETRY_MS, signal);
    case 'claimed':
      position.occurrence = key;
      position.cursor = claim.cursor;
      emit({ event: 'occurrence_started', occurrence: key, epoch: tenure.epoch, resumed: claim.resumed, cursor: claim.cursor });
      return planOccurrence(tenure, deps, key, track);
    default: {
      const unreachable: never = claim;
      throw new Error(`unexpected claim ${JSON.stringify(unreachable)}`);
    }
  }
}

async function planOccurrence(tenure: Tenure, deps: WorkDeps, key: string, track: Track): Promise<void> {
  const { db, config, clock, emit, position } = deps;
  const signal = tenure.signal;
  while (!signal.aborted) {
    await deps.waitUnfrozen(signal);
    const fence: Fence | null = tenure.fence('plan_items');
    if (!fence) return;
    const ctx = { db, fence };
    const read = await runAction(readDocumentBatchAction, ctx, { after: position.cursor ?? 0, limit: config.batchSize });
    if (read.kind !== 'ran') return;
    const batch = read.value;
    if (batch.documents.length === 0) {
      const done = await completeOccurrence(db, { ...fence, resource: 'occurrences' }, key);
      if (track(done, 'occurrences')) {
        emit({ event: 'occurrence_completed', occurrence: key, epoch: tenure.epoch });
        position.occurrence = null;
        position.cursor = null;
      }
      return;
    }
    // The planning work itself (simulated): a pause here is the classic stale writer.
    const items = planExpiries(batch.documents, batch.readAt);
    await clock.sleep(config.batchWorkMs, signal);
    // A renewal went unknown meanwhile: stop before the write (docs/design.md, invariant 4). A pause
    // inside this step is not seen here; the resource fence rejects that write.
    if (!tenure.trusted) return;
    const cursor = batch.documents.at(-1)!.id;
    const written = await runAction(writePlanItemsAction, ctx, { occurrence: key, items, cursor });
    if (written.kind !== 'ran' || !track(written.value, 'plan_items')) return;
    position.cursor = cursor;
  }
}

/**
 * The work loop of one tenure: find the occurrence due now (database clock),
 * claim or resume it, and run the job's steps (./job.ts) batch by batch until
 * the occurrence is completed.
 *
 * Guarantees
 * - Every fenced or external side effect (claim, batch write, call, step
 *   move, complete) starts only with a fence from `tenure.fence()`; a batch
 *   carries the fence it captured before its read.
 * - A batch's write and its cursor move are ONE fenced statement; an
 *   external call's cursor move follows the accepted call, fenced.
 * - When the tenure ends the loop stops at once: no further step starts, and a
 *   batch waiting in its planning work is abandoned before its write.
 * - While frozen (fault drill) no batch starts; renewals and reports go on.
 * - When an operator has disabled the scheduler, no new occurrence starts;
 *   the one in flight finishes, then the tenure ends and the lease is released.
 * - An operator's "run now" request (./run-requests.ts) is taken at the next
 *   pass (within IDLE_CHECK_MS while idle): occurrence `lease@requested` is
 *   claimed through the fence like a slot's, then the request marked taken.
 * - Every fenced side effect is counted once, by the rule in ./tenure-state.ts.
 * - A delegated step (./job.ts) starts only with a current fence; its
 *   progress moves the reported cursor; a failure is written (fenced) as the
 *   occurrence's end with the exit code, and the loop waits for the next slot.
 * Not guaranteed: a write or call already begun before a pause is still sent
 * after it; the database (or the external target) refuses it, and it is
 * counted in `writes.rejected` and logged in stale_write_rejections.
 */
import type pg from 'pg';
import { type Fence, type FencedResult, logRejection, occurrenceKey, readIntent, writeFenced } from '../lease';
import { traced } from '../telemetry/span';
import type { ReadOnlyPool } from './actions';
import type { Clock } from './clock';
import type { SchedulerConfig } from './config';
import { type EventSink, safeMessage, type SideEffect } from './events';
import type { DelegatedStep, ExternalStep, FencedStep, Job, OccurrenceInfo, PlanInput, TenureView } from './job';
import { advanceOccurrence, claimOccurrence, completeOccurrence, failOccurrence, nextOccurrenceStep } from './occurrences';
import { markRunRequestTaken, pendingRunRequest } from './run-requests';
import type { Tenure } from './tenure';
import type { TenureState } from './tenure-state';

export interface WorkDeps {
  db: pg.Pool;
  readDb: ReadOnlyPool;
  job: Job;
  /** The cadence in force: the config's override, else the job's. */
  everyMs: number;
  config: SchedulerConfig;
  clock: Clock;
  emit: EventSink;
  /** Resolves at once when not frozen; otherwise when unfrozen or `signal` aborts. */
  waitUnfrozen(signal: AbortSignal): Promise<void>;
  /** Aborts when the runtime stops (external calls honour it; a tenure's end does not abort a call). */
  stopSignal: AbortSignal;
  /** Runs after a batch captured its fence and planned, right before its write or call (fault drills). */
  beforeSideEffect(action: SideEffect, step: string, epoch: number): Promise<void>;
}

/** One tenure's work: its trust (`tenure`), what its loops share (`state`), and the runtime's dependencies. */
interface TenureWork {
  readonly tenure: Tenure;
  readonly state: TenureState;
  readonly deps: WorkDeps;
}

/** One batch, planned and ready for its side effect. */
interface PlannedBatch<S> {
  readonly step: S;
  /** The step's index in the job. */
  readonly index: number;
  /** The fence the batch captured before its read. */
  readonly fence: Fence;
  readonly plan: unknown;
  readonly input: PlanInput;
}

const RETRY_MS = 250;
/** While idle, look again this often (intent changes, the next slot). */
const IDLE_CHECK_MS = 1_000;
/**
 * Wake this long after the next slot's start (by the database clock, as read): a timer that fires
 * a little early only looks once more. Most of the exec runner's slot-to-command latency (bench:exec).
 */
const SLOT_WAKE_MS = 10;

async function currentSlot(db: pg.Pool, everyMs: number): Promise<{ slotAt: Date; nextInMs: number }> {
  const { rows } = await db.query<{ slot_ms: string; now_ms: string }>({
    text: `SELECT (floor(extract(epoch FROM t) * 1000 / $1::int) * $1::int)::bigint AS slot_ms,
                  (extract(epoch FROM t) * 1000)::bigint AS now_ms
           FROM (SELECT clock_timestamp() AS t) c`,
    values: [everyMs],
  });
  const slotMs = Number(rows[0]!.slot_ms);
  return { slotAt: new Date(slotMs), nextInMs: slotMs + everyMs - Number(rows[0]!.now_ms) };
}

/** Counts a fenced write (./tenure-state.ts) and reports one not written (refused, never sent, or unknown); true when it was written. */
function written<R>(work: TenureWork, result: FencedResult<R>): result is Extract<FencedResult<R>, { kind: 'written' }> {
  const epoch = work.tenure.epoch;
  if (result.kind === 'rejected') {
    const { reason, currentEpoch, resource } = result;
    work.deps.emit({ event: 'write_rejected', epoch, reason, currentEpoch, resource });
  }
  if (result.kind === 'not_sent') work.deps.emit({ event: 'write_not_sent', epoch });
  if (result.kind === 'unknown') work.deps.emit({ event: 'write_outcome_unknown', epoch });
  return work.state.count(result) && result.kind === 'written';
}

export async function runWorkLoop(tenure: Tenure, state: TenureState, deps: WorkDeps): Promise<void> {
  const work: TenureWork = { tenure, state, deps };
  while (!tenure.signal.aborted) {
    try {
      await runOnce(work);
    } catch (error) {
      // A store error (connection refused, statement timeout…) or a job's bug: nothing is assumed; try again.
      deps.emit({ event: 'error', where: 'work', message: safeMessage(error) });
      await deps.clock.sleep(RETRY_MS, tenure.signal);
    }
  }
}

/** One pass: claim the occurrence due now and run it, or wait for the next slot. */
async function runOnce(work: TenureWork): Promise<void> {
  const { tenure, state, deps } = work;
  const { db, config, clock, emit } = deps;
  const signal = tenure.signal;
  await deps.waitUnfrozen(signal);
  const fence = tenure.fence();
  if (!fence) return clock.sleep(RETRY_MS, signal);
  // An operator disabled this scheduler: start nothing new, hand the lease back (drain).
  const intent = await readIntent(db, config.lease.name);
  if (intent?.disabled) {
    emit({ event: 'draining', lease: config.lease.name, epoch: tenure.epoch, by: intent.by, reason: intent.reason });
    return tenure.end('drained');
  }
  const { slotAt: slot, nextInMs } = await currentSlot(db, deps.everyMs);
  const idle = () => clock.sleep(Math.min(nextInMs + SLOT_WAKE_MS, IDLE_CHECK_MS), signal);
  // An operator asked to run now: that occurrence first, at the request's instant, else the slot's.
  const asked = await pendingRunRequest(db, config.lease.name);
  const slotAt = asked?.requestedAt ?? slot;
  const key = occurrenceKey(config.lease.name, slotAt);
  if (asked === null && state.isCompleted(key)) return idle();
  const claim = await claimOccurrence(db, fence, key, slotAt);
  if (asked !== null && (claim.kind === 'claimed' || claim.kind === 'already_completed')) {
    await markRunRequestTaken(db, asked, tenure.epoch, key);
    emit({ event: 'run_now_taken', occurrence: key, epoch: tenure.epoch });
  }
  switch (claim.kind) {
    case 'already_completed':
      state.count({ kind: 'written' }); // the claim went through the fence and found nothing left to run
      state.foundCompleted(key);
      return idle();
    case 'rejected':
    case 'not_sent':
    case 'unknown':
      written(work, claim);
      return clock.sleep(RETRY_MS, signal);
    case 'claimed': {
      state.count({ kind: 'written' });
      state.claimed(key, claim.cursor);
      const step = deps.job.steps[claim.step]?.name ?? 'complete';
      emit({ event: 'occurrence_started', occurrence: key, epoch: tenure.epoch, resumed: claim.resumed, step, cursor: claim.cursor });
      // An occurrence stored past the job's last step (the job lost steps since) only needs completing.
      const start = Math.min(claim.step, deps.job.steps.length);
      return traced(`occurrence ${deps.job.name}`, { 'leaseboard.scheduler': config.lease.name, 'leaseboard.job': deps.job.name }, () =>
        runOccurrence(work, { lease: config.lease.name, key, scheduledAt: slotAt }, start, claim.cursor),
      );
    }
    default: {
      const unreachable: never = claim;
      throw new Error(`unexpected claim ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Runs the steps from `startStep` (at `startCursor`), moving the occurrence on after each, fenced. */
async function runOccurrence(work: TenureWork, occurrence: OccurrenceInfo, startStep: number, startCursor: number): Promise<void> {
  const { tenure, state, deps } = work;
  const { job, db, emit } = deps;
  for (let index = startStep, cursor = startCursor; index <= job.steps.length; index++, cursor = 0) {
    if (index < job.steps.length) {
      if (index !== startStep) emit({ event: 'step_started', occurrence: occurrence.key, epoch: tenure.epoch, step: job.steps[index]!.name });
      state.moved(cursor);
      const step = job.steps[index]!;
      const ran = step.class === 'delegated' ? await runDelegated(work, occurrence, step, cursor) : await runStep(work, occurrence, index, cursor);
      if (ran !== 'done') return; // stopped, or failed: the occurrence has ended (or is left running)
    }
    const fence = tenure.fence();
    if (!fence) return;
    const last = index >= job.steps.length - 1;
    const moved = await writeFenced(db, fence, (w) => [last ? completeOccurrence(w, occurrence.key) : nextOccurrenceStep(w, occurrence.key, index)]);
    // Not moved (count 0): someone else moved this occurrence on; the next pass claims again.
    if (!written(work, moved) || moved.results[0].count === 0) return;
    if (last) {
      emit({ event: 'occurrence_completed', occurrence: occurrence.key, epoch: tenure.epoch });
      state.completed(occurrence.key);
      return;
    }
  }
}

/**
 * A delegated step: its program runs with the epoch as a value and writes through the fence itself.
 * A failure ends the occurrence as failed with its exit code, in one fenced statement.
 */
async function runDelegated(work: TenureWork, occurrence: OccurrenceInfo, step: DelegatedStep, cursor: number): Promise<'done' | 'failed' | 'stopped'> {
  const { tenure, state, deps } = work;
  await deps.waitUnfrozen(tenure.signal);
  if (!tenure.fence()) return 'stopped';
  let at = cursor;
  const outcome = await step.run({
    ...occurrence,
    epoch: tenure.epoch,
    cursor,
    signal: tenure.signal,
    ended: () => tenure.reasonEnded,
    progress: (next) => {
      if (Number.isSafeInteger(next) && next > at) state.moved((at = next));
    },
  });
  switch (outcome.kind) {
    case 'succeeded':
      return 'done';
    case 'stopped':
      return 'stopped';
    case 'failed': {
      const fence = tenure.fence();
      if (!fence) return 'stopped';
      const ended = await writeFenced(deps.db, fence, (w) => [failOccurrence(w, occurrence.key, outcome.exitCode)]);
      if (written(work, ended) && ended.results[0].count > 0) {
        deps.emit({ event: 'occurrence_failed', occurrence: occurrence.key, epoch: tenure.epoch, exitCode: outcome.exitCode });
        state.completed(occurrence.key);
      }
      return 'failed';
    }
    default: {
      const unreachable: never = outcome;
      throw new Error(`unexpected delegated outcome ${JSON.stringify(unreachable)}`);
    }
  }
}

/** One step, batch by batch: read (read-only) → plan (pure) → write (fenced) or call (external). */
async function runStep(work: TenureWork, occurrence: OccurrenceInfo, index: number, start: number): Promise<'done' | 'stopped'> {
  const { tenure, state, deps } = work;
  const step = deps.job.steps[index] as FencedStep<unknown, unknown> | ExternalStep<unknown, unknown>;
  const signal = tenure.signal;
  let cursor = start;
  while (!signal.aborted) {
    await deps.waitUnfrozen(signal);
    const fence = tenure.fence();
    if (!fence) return 'stopped';
    const batch = await step.read({ ...occurrence, db: deps.readDb, cursor });
    if (batch === null) return 'done';
    if (!(batch.next > cursor)) throw new Error(`job ${deps.job.name}, step ${step.name}: the next cursor (${batch.next}) must be greater than ${cursor}`);
    const input: PlanInput = { ...occurrence, cursor, next: batch.next };
    const plan = step.plan(batch.data, input);
    // The planning work itself (simulated, or a throttle): a pause here is the classic stale writer.
    await deps.clock.sleep(deps.config.batchWorkMs, signal);
    // A renewal went unknown meanwhile: stop before the write (docs/design.md, invariant 4). A pause
    // inside this step is not seen here; the resource's fence refuses that write.
    if (signal.aborted || !tenure.trusted) return 'stopped';
    const moved =
      step.class === 'fenced' ? await writeBatch(work, { step, index, fence, plan, input }) : await callBatch(work, { step, index, fence, plan, input });
    if (!moved) return 'stopped';
    cursor = batch.next;
    state.moved(cursor);
  }
  return 'stopped';
}

/** A fenced batch: the step's statements and the cursor move, ONE fenced statement. True when the cursor moved. */
async function writeBatch(work: TenureWork, batch: PlannedBatch<FencedStep<unknown, unknown>>): Promise<boolean> {
  const { tenure, deps } = work;
  const { step, index, fence, plan, input } = batch;
  await deps.beforeSideEffect('write', step.name, fence.epoch);
  const result = await writeFenced(deps.db, fence, (w) => [...step.write(w, plan, input), advanceOccurrence(w, input.key, index, input.next)]);
  const done = written(work, result);
  if (done && step.committed) {
    try {
      step.committed(plan, input, tenureView(tenure));
    } catch (error) {
      deps.emit({ event: 'error', where: `committed ${step.name}`, message: safeMessage(error) });
    }
  }
  // The cursor did not move: the occurrence is no longer running at this step here.
  return done && result.results.at(-1)!.count > 0;
}

/** What a step sees of its tenure: the runtime's own trust check, and its end. */
function tenureView(tenure: Tenure): TenureView {
  return { lease: tenure.grant.name, epoch: tenure.epoch, current: () => tenure.fence() !== null, signal: tenure.signal };
}

/** An external batch: the call (fenced by the target), then — once accepted — the cursor move, fenced. True when the cursor moved. */
async function callBatch(work: TenureWork, batch: PlannedBatch<ExternalStep<unknown, unknown>>): Promise<boolean> {
  const { state, deps } = work;
  const { step, index, fence, plan, input } = batch;
  const { emit } = deps;
  await deps.beforeSideEffect('call', step.name, fence.epoch);
  const request = { lease: fence.lease, epoch: fence.epoch, idempotencyKey: `${input.key}/${step.name}/${input.cursor}`, signal: deps.stopSignal };
  const outcome = await step.call(request, plan, input);
  state.count(outcome);
  switch (outcome.kind) {
    case 'accepted': {
      emit({ event: 'call_accepted', epoch: fence.epoch, target: step.target.name, step: step.name });
      const moved = await writeFenced(deps.db, fence, (w) => [advanceOccurrence(w, input.key, index, input.next)]);
      return written(work, moved) && moved.results[0].count > 0;
    }
    case 'rejected': {
      const rejection = {
        lease: fence.lease,
        attemptedEpoch: fence.epoch,
        currentEpoch: outcome.currentEpoch,
        reason: 'stale_epoch' as const,
        resource: step.target.name,
      };
      await logRejection(deps.db, rejection);
      emit({ event: 'write_rejected', epoch: fence.epoch, reason: rejection.reason, currentEpoch: outcome.currentEpoch, resource: rejection.resource });
      return false;
    }
    case 'unknown':
      emit({ event: 'error', where: `call ${step.target.name}`, message: safeMessage(outcome.cause) });
      return false;
    default: {
      const unreachable: never = outcome;
      throw new Error(`unexpected call outcome ${JSON.stringify(unreachable)}`);
    }
  }
}

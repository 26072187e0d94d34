/**
 * Jobs: what the runtime runs under a lease. A job is data — a name, a
 * cadence — and its steps. Each occurrence of the job runs its steps in
 * order; each step runs batch by batch from a cursor:
 *
 *   read  (read_only: a read-only pool)  → the next batch and the cursor after it, or null when done
 *   plan  (pure: values in, values out)  → what to write or send
 *   write (fenced: statements only)      → run by the runtime behind the Fence, with the cursor move, as ONE statement
 *   call  (external: lease, epoch, key)  → sent by the step; the runtime then moves the cursor, fenced
 *
 * Guarantees (enforced by lib/scheduler/work-loop.ts and the types here)
 * - `read` gets no way to write: its pool's sessions are read-only.
 * - `write` gets no connection: only the statement builder, whose INSERTs and
 *   UPDATEs stamp the current lease and epoch, which the database checks.
 * - `write` and `call` start only with a current Fence; a batch whose fence
 *   went stale is refused (write) or refused by the target (call) and logged.
 * - An occurrence resumes at its stored step and cursor after a takeover; a
 *   batch is re-run at most from its last committed cursor, so writes keyed
 *   by (occurrence, item) land at most once.
 * - External targets: a step may call only a target declared `checksEpoch:
 *   true` — one that refuses an epoch lower than the highest it has seen
 *   (examples/demo/archive shows how). Any other target is REFUSED when the job is
 *   defined: no idempotency key can stop a stale holder's different write.
 *   Every call still carries an idempotency key, the same for every attempt
 *   at that batch by any holder, so a retry after a takeover is a repeat.
 * - `committed` (optional, fenced steps): told after a batch's write
 *   COMMITTED — never after a refused or unknown one — with a view of the
 *   tenure that wrote it, for side effects that must follow only what the
 *   database accepted (the alert evaluator's delivery). It runs in the work
 *   loop and must return at once; a throw is reported as an `error` event.
 * - Delegated steps (the exec runner's command, lib/jobs/exec): `run` starts
 *   only with a current Fence and gets the epoch as a value; the program it
 *   starts writes through the database's fence itself. The input's `signal`
 *   aborts when the tenure ends (`ended()` says why) and the step must stop
 *   its program then. `failed` ends the occurrence as failed with the exit
 *   code (fenced, like a completion); `stopped` leaves it running (resumable
 *   while its slot is due, else abandoned).
 * Not guaranteed: a target that says it checks epochs but does not; that a
 * delegated program stops when told (its writes are still refused).
 */
import { type FencedStatement, type FencedWrites, leaseNameSchema } from '../lease';
import type { ActionClass, ReadOnlyPool } from './actions';
import type { TenureEndReason } from './tenure';

export interface OccurrenceInfo {
  /** The lease the job runs under. */
  readonly lease: string;
  /** `lease@instant`, e.g. `nightly-export@2026-11-30T16:00:00Z`. */
  readonly key: string;
  readonly scheduledAt: Date;
}

export interface ReadInput extends OccurrenceInfo {
  readonly db: ReadOnlyPool;
  /** Where this step stands: 0 at its start, then the `next` of the last batch written. */
  readonly cursor: number;
}

/** A batch: its data and the cursor after it (greater than the cursor it was read at). */
export interface Batch<R> {
  readonly data: R;
  readonly next: number;
}

export interface PlanInput extends OccurrenceInfo {
  readonly cursor: number;
  readonly next: number;
}

export interface ExternalTarget {
  /** Shown in the rejection log, e.g. `archive`. No hostnames. */
  readonly name: string;
  /** The target refuses an epoch lower than the highest it has seen for the lease (HTTP 409). */
  readonly checksEpoch: true;
}

export interface ExternalRequest {
  readonly lease: string;
  readonly epoch: number;
  /** `occurrence/step/cursor`: the same for every attempt at this batch, by any holder. */
  readonly idempotencyKey: string;
  /**
   * Aborts when the runtime stops — not when the tenure ends: a call already
   * begun goes out, and the target's own epoch check decides (as the
   * database's does for a write).
   */
  readonly signal: AbortSignal;
}

export type ExternalOutcome =
  | { kind: 'accepted' }
  /** The target saw a higher epoch (`currentEpoch`, when it says). */
  | { kind: 'rejected'; currentEpoch: number | null }
  | { kind: 'unknown'; cause: unknown };

interface StepBase<R, P> {
  readonly name: string;
  read(input: ReadInput): Promise<Batch<R> | null>;
  plan(data: R, input: PlanInput): P;
}

/** The tenure a committed batch was written under, as a step may see it. */
export interface TenureView {
  readonly lease: string;
  readonly epoch: number;
  /** True while the runtime still trusts this tenure — the same check that gates every fenced step (self-suspicion included). */
  current(): boolean;
  /** Aborts when the tenure ends. */
  readonly signal: AbortSignal;
}

export interface FencedStep<R, P> extends StepBase<R, P> {
  readonly class: Extract<ActionClass, 'fenced'>;
  write(w: FencedWrites, plan: P, input: PlanInput): readonly FencedStatement<unknown>[];
  /** After the batch's write committed (see the module header). Must not block. */
  committed?(plan: P, input: PlanInput, tenure: TenureView): void;
}

export interface ExternalStep<R, P> extends StepBase<R, P> {
  readonly class: Extract<ActionClass, 'external'>;
  readonly target: ExternalTarget;
  call(request: ExternalRequest, plan: P, input: PlanInput): Promise<ExternalOutcome>;
}

/** What a delegated step is given: the occurrence, the epoch as a value, the tenure's end, and a way to move the reported cursor. */
export interface DelegatedInput extends OccurrenceInfo {
  readonly epoch: number;
  /** Where the occurrence stands (0, or the stored cursor of a resumed one). */
  readonly cursor: number;
  /** Aborts when the tenure ends; the step must stop its work then. */
  readonly signal: AbortSignal;
  /** Why the tenure ended, once `signal` aborted (else null). */
  ended(): TenureEndReason | null;
  /** The work stands at `cursor` (reports carry it; a smaller one than before is ignored). */
  progress(cursor: number): void;
}

export type DelegatedOutcome =
  | { kind: 'succeeded' }
  /** The work ended with a non-zero exit code (128 + N for a signal N it did not get from us). */
  | { kind: 'failed'; exitCode: number }
  /** The work was stopped because the tenure ended: the occurrence is left running. */
  | { kind: 'stopped' };

export interface DelegatedStep {
  readonly class: Extract<ActionClass, 'delegated'>;
  readonly name: string;
  run(input: DelegatedInput): Promise<DelegatedOutcome>;
}

export type Step = FencedStep<unknown, unknown> | ExternalStep<unknown, unknown> | DelegatedStep;

export interface Job {
  /** Also the default lease name: lowercase letters, digits, dashes. */
  readonly name: string;
  /** An occurrence falls due every `everyMs` (aligned to the Unix epoch); at least 1 s. */
  readonly everyMs: number;
  readonly steps: readonly Step[];
  /** Releases what the job itself holds (e.g. a delivery sender); whoever runs the job calls it once the runtime stopped. */
  readonly close?: () => Promise<void>;
}

export class JobDefinitionError extends Error {
  constructor(job: string, message: string) {
    super(`job ${job}: ${message}`);
    this.name = 'JobDefinitionError';
  }
}

/** A step that writes to this database (types infer the batch and plan shapes). */
export function fencedStep<R, P>(step: Omit<FencedStep<R, P>, 'class'>): FencedStep<R, P> {
  return Object.freeze({ ...step, class: 'fenced' as const });
}

/** A step that calls a target outside this database which checks epochs itself. */
export function externalStep<R, P>(step: Omit<ExternalStep<R, P>, 'class'>): ExternalStep<R, P> {
  return Object.freeze({ ...step, class: 'external' as const });
}

/** A step whose work something else does, fenced by the database itself (see the module header). */
export function delegatedStep(step: Omit<DelegatedStep, 'class'>): DelegatedStep {
  return Object.freeze({ ...step, class: 'delegated' as const });
}

/** Checks a job where it is built, naming what is wrong; returns it frozen. */
export function defineJob(job: Job): Job {
  const name = leaseNameSchema.safeParse(job.name);
  if (!name.success) throw new JobDefinitionError(String(job.name), `name: ${name.error.issues[0]?.message ?? 'invalid'}`);
  if (!Number.isInteger(job.everyMs) || job.everyMs < 1_000) throw new JobDefinitionError(job.name, `everyMs must be whole ms ≥ 1000, got ${job.everyMs}`);
  if (job.steps.length === 0) throw new JobDefinitionError(job.name, 'needs at least one step');
  const names = new Set<string>();
  for (const step of job.steps) {
    if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(step.name)) throw new JobDefinitionError(job.name, `step name ${JSON.stringify(step.name)}: 1–32 of [a-z0-9-]`);
    if (names.has(step.name)) throw new JobDefinitionError(job.name, `two steps named ${step.name}`);
    names.add(step.name);
    if (step.class === 'external' && (step.target as { checksEpoch?: unknown }).checksEpoch !== true) {
      throw new JobDefinitionError(job.name, `step ${step.name}: refused — external target ${step.target.name} must check epochs (checksEpoch: true)`);
    }
    if (step.class !== 'fenced' && step.class !== 'external' && step.class !== 'delegated')
      throw new JobDefinitionError(job.name, `step ${String((step as Step).name)}: unknown class`);
  }
  return Object.freeze({ ...job, steps: Object.freeze([...job.steps]) });
}

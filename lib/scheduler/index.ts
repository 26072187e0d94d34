/**
 * Leaseboard's scheduler library — the one public entry module. Run any job
 * under a lease with a fencing epoch:
 *
 *   const job = defineJob({ name, everyMs, steps: [fencedStep({ name, read, plan, write })] });
 *   const runtime = new SchedulerRuntime(job, schedulerConfig({ name: job.name }), { db, readDb });
 *   runtime.start(); … await runtime.stop();
 *
 * or from the command line: `npm run scheduler -- --job NAME` for a job
 * registered in lib/jobs (the composition root, lib/cli, puts it here; this
 * library imports no job). What each piece guarantees is said in its module:
 * ./job.ts (steps and action classes), ./runtime.ts (the loop),
 * ./tenure-state.ts (what the loops share, and how writes are counted),
 * ../lease/fence.ts (the database-enforced fence, and how to fence a table).
 */
export { defineJob, delegatedStep, externalStep, fencedStep, JobDefinitionError } from './job';
export type {
  Batch,
  DelegatedInput,
  DelegatedOutcome,
  DelegatedStep,
  ExternalOutcome,
  ExternalRequest,
  ExternalStep,
  ExternalTarget,
  FencedStep,
  Job,
  OccurrenceInfo,
  PlanInput,
  ReadInput,
  Step,
  TenureView,
} from './job';
export { SchedulerRuntime } from './runtime';
export type { TenureEndReason } from './tenure';
export type { RuntimeDeps, RuntimeSnapshot } from './runtime';
export { schedulerConfig, DEFAULT_SCHEDULER } from './config';
export type { SchedulerConfig, SchedulerConfigInput } from './config';
export type { RuntimeEvent, SideEffect, WriteStats } from './events';
export type { FencedStatement, FencedTable, FencedWrites, RowOf } from '../lease';
/** The fence's SQLSTATEs: `LB001` a stale, expired or released epoch refused; `LB002` a DELETE without a fence (../lease/fence.ts). */
export { FENCE_MISSING, FENCE_REFUSED } from '../lease';
export type { Rejection, RejectionReason } from '../lease';
export { createPool, createReadOnlyPool } from '../../db/pool';
export type { ReadOnlyPool } from '../../db/pool';

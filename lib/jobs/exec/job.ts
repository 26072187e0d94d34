/**
 * The exec runner's job (`leaseboard run --lease NAME --every 1h -- COMMAND ARGS…`):
 * any program under a lease. One delegated step (lib/scheduler/job.ts) runs
 * the command once per cadence slot, as that slot's occurrence (./child.ts).
 *
 * What the child gets
 * - `LEASEBOARD_LEASE`, `LEASEBOARD_EPOCH`, `LEASEBOARD_OCCURRENCE` (the
 *   occurrence key, `lease@2026-11-30T16:00:00Z`) in its environment, which
 *   is otherwise an allow-list of the runner's (./environment.ts): never
 *   Leaseboard's secrets, `DATABASE_URL` only if the user asked for it.
 * - A progress channel: JSON lines `{"cursor": N}` on fd 3 (./progress.ts).
 * Guarantees: the command starts only while the runtime trusts its tenure;
 * its exit code ends the occurrence (0 completed, N failed with N); when the
 * tenure ends it gets SIGTERM, then SIGKILL after `graceMs` (./child.ts).
 * Not guaranteed: that the command's own writes are safe — they are fenced
 * only if its tables carry lease and epoch (lib/lease/fence.ts) and it
 * writes the epoch from its environment; an external service must check the
 * epoch it is sent, as the demo's archive does (examples/demo/archive).
 */
import { defineJob, delegatedStep, type Job, type TenureEndReason } from '../../scheduler';
import { runChild } from './child';
import { childEnvironment } from './environment';
import type { ProgressLine } from './progress';

export interface ExecJobOptions {
  /** Lease name (also the job's). */
  readonly lease: string;
  readonly everyMs: number;
  readonly command: string;
  readonly args: readonly string[];
  /** SIGTERM → SIGKILL. Default 10 s. */
  readonly graceMs?: number;
  /** Bytes of output kept for a failure's `child_exited` event. Default 4096; 0 keeps none. */
  readonly tailBytes?: number;
  /** The runner's environment: the child gets an allow-list of it (./environment.ts). */
  readonly env: NodeJS.ProcessEnv;
  /** More of the runner's variables to give the child, by name (`--pass-env`; checked by `passEnvRefusal`). */
  readonly passEnv?: readonly string[];
  /** Give the child the runner's database URL as DATABASE_URL. Default: not given. */
  readonly databaseUrl?: string | null;
  /** Where the child's stdout and stderr go (the runner's stderr). */
  readonly output: (chunk: Buffer) => void;
  readonly onEvent: (event: ExecEvent) => void;
  /** Host clock, only for the start-lag figure (ms since the Unix epoch). */
  readonly now?: () => number;
}

export const DEFAULT_GRACE_MS = 10_000;
export const DEFAULT_TAIL_BYTES = 4_096;

/** The runner's own events about its child (display-safe: no PIDs, no output but a failure's tail). */
export type ExecEvent =
  /** `startLagMs`: from the slot's instant (database clock) to the child's spawn (host clock). */
  | { event: 'child_started'; occurrence: string; epoch: number; startLagMs: number }
  | { event: 'progress_ignored'; occurrence: string; why: Extract<ProgressLine, { kind: 'refused' }>['why'] }
  | { event: 'child_stopping'; occurrence: string; epoch: number; why: TenureEndReason | null; signal: 'SIGTERM'; graceMs: number }
  | { event: 'child_killed'; occurrence: string; epoch: number; signal: 'SIGKILL'; afterMs: number }
  | { event: 'child_exited'; occurrence: string; epoch: number; exitCode: number; signal: string | null; stoppedByUs: boolean; tail?: string };

/** Refused progress lines reported per occurrence at most (a chatty fd 3 cannot flood the runner's log). */
const MAX_REFUSALS_REPORTED = 10;

export function execJob(options: ExecJobOptions): Job {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
  const now = options.now ?? Date.now;
  const baseEnv = childEnvironment(options.env, { pass: options.passEnv ?? [], databaseUrl: options.databaseUrl ?? null });
  return defineJob({
    name: options.lease,
    everyMs: options.everyMs,
    steps: [
      delegatedStep({
        name: 'command',
        run: (input) => {
          const { key: occurrence, epoch } = input;
          let refusals = 0;
          let stoppingAt = 0;
          return runChild(
            {
              command: options.command,
              args: options.args,
              graceMs,
              tailBytes,
              env: { ...baseEnv, LEASEBOARD_LEASE: input.lease, LEASEBOARD_EPOCH: String(epoch), LEASEBOARD_OCCURRENCE: occurrence },
            },
            {
              signal: input.signal,
              started: () => options.onEvent({ event: 'child_started', occurrence, epoch, startLagMs: now() - input.scheduledAt.getTime() }),
              progress: (cursor) => input.progress(cursor),
              refused: (why) => {
                if (++refusals <= MAX_REFUSALS_REPORTED) options.onEvent({ event: 'progress_ignored', occurrence, why });
              },
              stopping: () => {
                stoppingAt = now();
                options.onEvent({ event: 'child_stopping', occurrence, epoch, why: input.ended(), signal: 'SIGTERM', graceMs });
              },
              killed: () => options.onEvent({ event: 'child_killed', occurrence, epoch, signal: 'SIGKILL', afterMs: now() - stoppingAt }),
              output: options.output,
              exited: ({ exitCode, signal, stoppedByUs, tail }) =>
                options.onEvent({ event: 'child_exited', occurrence, epoch, exitCode, signal, stoppedByUs, ...(tail === null ? {} : { tail }) }),
            },
          );
        },
      }),
    ],
  });
}

/**
 * The jobs the composition roots run by name: the CLI (lib/cli,
 * `npm run scheduler -- --job NAME`) and the dashboard's process (lib/host,
 * `housekeepingJobs`). The runtime itself imports none of them: a job is
 * handed to it.
 *
 * Two kinds, kept apart: Leaseboard's own housekeeping (./alert-evaluator,
 * ./retention-pruner — real work on its own tables, hosted by every dashboard
 * server), and ./example-squares, the README's example of a job. No job is
 * the default: the CLI runs only the one it is told to. The demo's job lives
 * with the demo (examples/demo), which runs it through the same CLI code.
 */
import { checkedEnv } from '../config';
import { JobDefinitionError, schedulerConfig, type Job, type SchedulerConfig } from '../scheduler';
import { ALERT_EVALUATOR_JOB, alertEvaluatorFromEnv } from './alert-evaluator';
import { squaresJob } from './example-squares/job';
export { DEFAULT_GRACE_MS, DEFAULT_TAIL_BYTES, execJob, type ExecEvent } from './exec/job';
export { passEnvRefusal } from './exec/environment';
import { RETENTION_PRUNER_JOB, retentionPrunerFromEnv } from './retention-pruner';

/** What the CLI passes on to a job: its own options, from flags, and where its own log lines go. */
export interface JobOptions {
  batchSize?: number;
  /** The job's own text flags the program declared (lib/cli/scheduler.ts `jobFlags`), by name without `--`. */
  flags?: Readonly<Record<string, string>>;
  log?: (line: string) => void;
}

export const JOBS = {
  squares: () => squaresJob,
  // Settings from the environment (ALERTMANAGER_URL, LEASEBOARD_ALERT_*: lib/alerts/config.ts).
  [ALERT_EVALUATOR_JOB]: (options: JobOptions) => alertEvaluatorFromEnv(checkedEnv(), options.log),
  // Settings from the environment (LEASEBOARD_RETAIN_*, LEASEBOARD_PARTITION_WIDTH, LEASEBOARD_RETENTION_*: lib/retention/policy.ts).
  [RETENTION_PRUNER_JOB]: () => retentionPrunerFromEnv(checkedEnv()),
} satisfies Record<string, (options: JobOptions) => Job>;

/** A housekeeping job, or why it was left out (bad settings, naming the variable). */
export type Housekeeping = { job: Job; config: SchedulerConfig } | { job: string; error: string };

/**
 * Leaseboard's own housekeeping, as the dashboard server hosts it
 * (lib/host/hosted-jobs.ts): the alert evaluator and the retention pruner,
 * settings from `env`. Each is built on its own: bad settings for one
 * (JobDefinitionError, naming the variable) leave only that one out.
 */
export function housekeepingJobs(env: Readonly<Record<string, string | undefined>>, log: (line: string) => void): Housekeeping[] {
  const build = (name: string, make: () => Job): Housekeeping => {
    try {
      return { job: make(), config: schedulerConfig({ name, batchWorkMs: 0 }) };
    } catch (error) {
      if (error instanceof JobDefinitionError) return { job: name, error: error.message };
      throw error;
    }
  };
  return [
    build(ALERT_EVALUATOR_JOB, () => alertEvaluatorFromEnv(env, (line) => log(`alerts: ${line}`))),
    build(RETENTION_PRUNER_JOB, () => retentionPrunerFromEnv(env)),
  ];
}

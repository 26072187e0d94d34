/**
 * The jobs the composition roots run by name: the CLI (lib/cli,
 * `npm run scheduler -- --job NAME`) and the dashboard's process (lib/host,
 * `housekeepingJobs`). The runtime itself imports none of them: a job is
 * handed to it.
 *
 * Two kinds, kept apart: Leaseboard's own housekeeping (./alert-evaluator,
 * ./retention-pruner — real work on its own tables, hosted by every dashboard
 * server), and jobs that only show the runtime at work (./demo/retention-planner,
 * the demo's synthetic planner; ./example-squares, the README's example).
 */
import { checkedEnv } from '../config';
import { JobDefinitionError, schedulerConfig, type Job, type SchedulerConfig } from '../scheduler';
import { ALERT_EVALUATOR_JOB, alertEvaluatorFromEnv } from './alert-evaluator';
import { squaresJob } from './example-squares/job';
export { DEFAULT_GRACE_MS, DEFAULT_TAIL_BYTES, execJob, type ExecEvent, type ExecJobOptions } from './exec/job';
import { retentionPlannerJob } from './demo/retention-planner';
import { RETENTION_PRUNER_JOB, retentionPrunerFromEnv } from './retention-pruner';

/** What the CLI passes on to a job: its own options, from flags, and where its own log lines go. */
export interface JobOptions {
  batchSize?: number;
  archiveUrl?: string | null;
  log?: (line: string) => void;
}

export const JOBS = {
  // The archive's writers' token from the environment (LEASEBOARD_ARCHIVE_TOKEN: lib/archive/server.ts).
  'retention-planner': (options: JobOptions) => retentionPlannerJob({ ...options, archiveToken: process.env.LEASEBOARD_ARCHIVE_TOKEN?.trim() || null }),
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

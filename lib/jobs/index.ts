/**
 * The jobs the CLI can run by name (`npm run scheduler -- --job NAME`). The
 * runtime itself imports none of them: a job is handed to it.
 */
import { schedulerConfig, type Job, type SchedulerConfig } from '../scheduler';
import { ALERT_EVALUATOR_JOB, alertEvaluatorFromEnv } from './alert-evaluator';
import { squaresJob } from './example-squares/job';
import { retentionPlannerJob } from './retention-planner';

/** What the CLI passes on to a job: its own options, from flags, and where its own log lines go. */
export interface JobOptions {
  batchSize?: number;
  archiveUrl?: string | null;
  log?: (line: string) => void;
}

export const JOBS = {
  'retention-planner': (options: JobOptions) => retentionPlannerJob(options),
  squares: () => squaresJob,
  // Settings from the environment (ALERTMANAGER_URL, LEASEBOARD_ALERT_*: lib/alerts/config.ts).
  [ALERT_EVALUATOR_JOB]: (options: JobOptions) => alertEvaluatorFromEnv(process.env, options.log),
} satisfies Record<string, (options: JobOptions) => Job>;

/**
 * Leaseboard's own housekeeping, as the dashboard server hosts it
 * (lib/host/hosted-jobs.ts): the alert evaluator, settings from `env`.
 * Throws JobDefinitionError for bad settings (naming the variable).
 */
export function housekeepingJobs(env: Readonly<Record<string, string | undefined>>, log: (line: string) => void): { job: Job; config: SchedulerConfig }[] {
  const evaluator = alertEvaluatorFromEnv(env, (line) => log(`alerts: ${line}`));
  return [{ job: evaluator, config: schedulerConfig({ name: ALERT_EVALUATOR_JOB, batchWorkMs: 0 }) }];
}

/**
 * Leaseboard's own housekeeping jobs, run inside every dashboard server
 * process (scripts/serve.ts): each is a job like any other (lib/jobs), under
 * its own lease, so with several status-service instances exactly one runs
 * each job at a time, and each shows on the dashboard as a scheduler — the
 * system watches its own housekeeping.
 *
 * Their runtimes share one pool, so they share the process's renewer
 * (lib/scheduler/renewer.ts): their leases renew together, in one statement.
 *
 * Guarantees: `stop()` stops every runtime (which releases its lease), closes
 * what each job holds (`job.close`) and ends the pools it opened; a job that fails to start is reported and the
 * others still run. Turned off with LEASEBOARD_HOST_JOBS=off (e.g. when a
 * separate process runs them).
 * Not guaranteed: that a job runs while no dashboard server is up.
 */
import { settingFrom } from '../config';
import { housekeepingJobs } from '../jobs';
import type { Job, SchedulerConfig } from '../scheduler';
import { createPool, createReadOnlyPool, SchedulerRuntime } from '../scheduler';

/** One hosted job: the job and the runtime settings it runs with. */
export interface HostedJob {
  job: Job;
  config: SchedulerConfig;
}

export interface HostedJobs {
  stop(): Promise<void>;
}

export interface HostOptions {
  databaseUrl: string;
  jobs: readonly HostedJob[];
  /** One line per noteworthy runtime event; never secrets. */
  log: (line: string) => void;
}

/** Runtime events worth a log line in a server's output (the rest are for tests and tooling). */
const LOGGED = new Set(['acquired', 'lost', 'released', 'write_rejected', 'write_not_sent', 'write_outcome_unknown', 'error', 'disabled']);

export function startHostedJobs(options: HostOptions): HostedJobs {
  if (options.jobs.length === 0) return { stop: async () => {} };
  const db = createPool(options.databaseUrl, { applicationName: 'leaseboard-jobs', max: 2 + options.jobs.length });
  const readDb = createReadOnlyPool(options.databaseUrl, { applicationName: 'leaseboard-jobs-read', max: options.jobs.length });
  const runtimes = options.jobs.map(({ job, config }) => {
    const runtime = new SchedulerRuntime(job, config, {
      db,
      readDb,
      onEvent: (event) => {
        if (LOGGED.has(event.event)) options.log(`job ${job.name}: ${JSON.stringify(event)}`);
      },
    });
    runtime.start();
    return runtime;
  });
  return {
    stop: async () => {
      await Promise.all(runtimes.map((runtime) => runtime.stop()));
      await Promise.all(options.jobs.map(({ job }) => job.close?.()));
      await Promise.all([db.end(), readDb.end()]);
    },
  };
}

/**
 * The jobs a dashboard server hosts, from the environment: the alert evaluator
 * (`leaseboard-alerts`) and the retention pruner (`leaseboard-retention`);
 * none when LEASEBOARD_HOST_JOBS=off. Settings that are out of range leave
 * that job out, with a log line naming the variable (the dashboard still
 * serves; a typo starts neither alerting nor deleting).
 */
export function hostedJobs(env: Record<string, string | undefined>, log: (line: string) => void = () => {}): HostedJob[] {
  if (settingFrom(env, 'hostJobs') === 'off') return [];
  return housekeepingJobs(env, log).flatMap((built) => {
    if ('error' in built) {
      log(`hosted job ${built.job}: not started: ${built.error}`);
      return [];
    }
    return [built];
  });
}

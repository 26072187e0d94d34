/**
 * `leaseboard scheduler [--job NAME] [--lease NAME] [--label A] [--ttl 15s] [--renew-every 5s] …`
 * (`npm run scheduler -- …`): the composition of one job from lib/jobs' registry with the
 * runtime (lib/scheduler), which knows no job itself.
 *
 * Starts one scheduler process (one instance token) running one job from
 * lib/jobs (default `retention-planner`) under the lease `--lease` (default:
 * the job's name). Prints one JSON line `{"event":"started","pid":…,"token":"inst_…",…}`,
 * then one JSON line per runtime event. Database: DATABASE_URL, else the
 * running demo's. Signals: SIGUSR1 toggles freeze progress, SIGUSR2 toggles
 * drop reports, SIGTERM/SIGINT stop work, release the lease and exit 0.
 * With LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1 (set by supervisors) it also stops when
 * its stdin closes, i.e. when the process that started it is gone, and takes
 * JSON commands on stdin: `{"command":"pause-before","action":"write"|"call"}`
 * arms the fault drill "pause mid-write" (it stops itself with SIGSTOP; the
 * supervisor resumes it). Bad options: a message on stderr and exit code 2.
 */
import { tracing } from '../telemetry/register';
import { parseArgs } from 'node:util';
import { listenToParent } from '../child/json-line-process';
import { JOBS, type JobOptions } from '../jobs';
import { LABEL_PATTERN, LeaseConfigError } from '../lease';
import { createPool, createReadOnlyPool, JobDefinitionError, type RuntimeEvent, SchedulerRuntime, schedulerConfig } from '../scheduler';
import { databaseUrl } from './running-database';
import { DurationError, parseDuration } from '../config';

/** Timing flags: durations with their unit (`15s`, `250ms`), as everywhere (lib/config/duration.ts). */
const DURATIONS = {
  ttl: 'ttlMs',
  'renew-every': 'renewEveryMs',
  'renew-deadline': 'renewDeadlineMs',
  'safety-margin': 'safetyMarginMs',
  'report-every': 'reportEveryMs',
  every: 'everyMs',
  'batch-work': 'batchWorkMs',
  'stall-after': 'stallAfterMs',
  'overdue-after': 'overdueAfterMs',
} as const;

function fail(message: string): never {
  process.stderr.write(`scheduler: ${message}\n`);
  process.exit(2);
}

const whole = (flag: string, raw: string) => (/^\d+$/.test(raw) ? Number(raw) : fail(`--${flag}: expected a whole number, got ${JSON.stringify(raw)}`));

function duration(flag: string, raw: string): number {
  try {
    return parseDuration(raw);
  } catch (error) {
    if (error instanceof DurationError) fail(`--${flag}: ${error.message}`);
    throw error;
  }
}

function parse(argv: string[]) {
  const text = ['lease', 'label', 'job', 'batch-size', 'archive-url'] as const;
  const options = Object.fromEntries([...Object.keys(DURATIONS), ...text].map((key) => [key, { type: 'string' as const }]));
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true }) as { values: Record<string, string | undefined> });
  } catch (error) {
    fail((error as Error).message);
  }
  const jobName = values.job ?? 'retention-planner';
  const makeJob = Object.hasOwn(JOBS, jobName) ? JOBS[jobName as keyof typeof JOBS] : fail(`--job: one of ${Object.keys(JOBS).join(', ')}`);
  if (values.label !== undefined && !LABEL_PATTERN.test(values.label)) fail('--label: 1–32 letters, digits, spaces, _ . -');
  const archiveUrl = values['archive-url'] ?? process.env.LEASEBOARD_ARCHIVE_URL ?? null;
  if (archiveUrl !== null && !/^https?:\/\/[^\s]+$/.test(archiveUrl)) fail('--archive-url: an http(s) URL');
  const jobOptions: JobOptions = {
    archiveUrl,
    log: (line) => process.stdout.write(`${JSON.stringify({ event: 'job_log', job: jobName, message: line })}\n`),
    ...(values['batch-size'] === undefined ? {} : { batchSize: whole('batch-size', values['batch-size']) }),
  };
  const numbers: Record<string, number> = {};
  for (const [flag, field] of Object.entries(DURATIONS)) {
    const raw = values[flag];
    if (raw !== undefined) numbers[field] = duration(flag, raw);
  }
  try {
    const job = makeJob(jobOptions);
    return { job, config: schedulerConfig({ name: values.lease ?? job.name, label: values.label ?? null, ...numbers }) };
  } catch (error) {
    if (error instanceof LeaseConfigError || error instanceof JobDefinitionError) fail(error.message);
    throw error;
  }
}

export const HELP = `usage: leaseboard scheduler [--job NAME] [--lease NAME] [--label A] [options]   (npm run scheduler -- …)

Runs one job registered in lib/jobs (default retention-planner) under the lease --lease
(default: the job's name), one JSON line per runtime event on stdout.

options (times are durations with a unit: 250ms, 15s, 2m, 1h):
  --job NAME  --lease NAME  --label TEXT  --batch-size N  --archive-url URL
  --ttl 15s  --renew-every 5s  --renew-deadline 10s  --safety-margin 2s
  --report-every 2s  --every DURATION  --batch-work 100ms  --stall-after 5m  --overdue-after 5m
signals: SIGUSR1 toggles freeze progress, SIGUSR2 toggles drop reports, SIGTERM/SIGINT stop.
database: DATABASE_URL, else the running demo's.
exit codes: 0 stopped (the lease released); 2 bad options or no database.
`;

/** Runs until stopped by a signal (or the parent's going away); exits the process itself. */
export async function run(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const { job, config } = parse(argv);
  const url = databaseUrl(fail);
  const pool = createPool(url, { applicationName: 'leaseboard-scheduler', max: 4 });
  const readDb = createReadOnlyPool(url, { applicationName: 'leaseboard-scheduler', max: 2 });
  const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const runtime = new SchedulerRuntime(job, config, {
    db: pool,
    readDb,
    onEvent: (event: RuntimeEvent) => print(event),
    // The drill's pause is real: this process stops itself; whoever armed it sends SIGCONT. Once
    // resumed, it first takes in what its sockets said meanwhile (a database failover closes them:
    // a timer, so the event loop polls them at least once), so the held write — its fence unchanged —
    // goes to whichever node is the primary now, as a retried write would.
    pause: async () => {
      process.kill(process.pid, 'SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
  });
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    await job.close?.();
    await Promise.all([pool.end(), readDb.end()]);
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGUSR1', () => runtime.setFrozen(!runtime.snapshot().frozen));
  process.on('SIGUSR2', () => runtime.setDroppingReports(!runtime.snapshot().droppingReports));
  // Started by a supervisor: its commands, and stop (gracefully) when it is gone, even if it was SIGKILLed.
  listenToParent(
    (command) => {
      if (command.command === 'pause-before' && (command.action === 'write' || command.action === 'call')) runtime.armPauseBefore(command.action);
    },
    () => void shutdown(),
  );
  // Announce only once the signal handlers are in place: a supervisor may signal at once.
  print({ event: 'started', pid: process.pid, token: runtime.token, lease: config.lease.name, job: job.name, label: config.label });
  runtime.start();
}

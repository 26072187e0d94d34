/**
 * `leaseboard scheduler --job NAME [--lease NAME] [--label A] [--ttl 15s] [--renew-every 5s] …`
 * (`npm run scheduler -- …`): the composition of one job from lib/jobs' registry with the
 * runtime (lib/scheduler), which knows no job itself.
 *
 * Starts one scheduler process (one instance token) running the job `--job` (required: there is no
 * default job; without it, a message naming the jobs and exit code 2) under the lease `--lease`
 * (default: the job's name). Prints one JSON line `{"event":"started","pid":…,"token":"inst_…",…}`,
 * then one JSON line per runtime event. Database: DATABASE_URL, else the
 * running demo's. Signals: SIGUSR1 toggles freeze progress, SIGUSR2 toggles
 * drop reports, SIGTERM/SIGINT stop work, release the lease and exit 0.
 * With LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1 (set by supervisors) it also stops when
 * its stdin closes, i.e. when the process that started it is gone, and takes
 * JSON commands on stdin: `{"command":"pause-before","action":"write"|"call"}`
 * arms the fault drill "pause mid-write" (it stops itself with SIGSTOP; the
 * supervisor resumes it). Bad options: a message on stderr and exit code 2.
 *
 * `runScheduler(argv, program)` is the same process around another registry of jobs: a program of
 * one's own (the demo's examples/demo/scheduler.ts) runs its jobs exactly as this command runs
 * Leaseboard's, with the same flags, events, signals and drills.
 */
import { tracing } from '../telemetry/register';
import { parseArgs } from 'node:util';
import { listenToParent } from '../child/json-line-process';
import { JOBS, type JobOptions } from '../jobs';
import { LeaseConfigError } from '../lease';
import { parseLabelFlags } from './label-flags';
import { createPool, createReadOnlyPool, type Job, JobDefinitionError, type RuntimeEvent, SchedulerRuntime, schedulerConfig } from '../scheduler';
import { databaseUrl } from './running-database';
import { DurationError, parseDuration, urlPasswordRefusal } from '../config';

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

/** A registry of jobs and the program that runs them. */
export interface SchedulerProgram {
  /** How messages name the program, e.g. `scheduler`. */
  readonly name: string;
  readonly jobs: Readonly<Record<string, (options: JobOptions) => Job>>;
  /** The job run when `--job` is not given; none (Leaseboard's own command): `--job` is required. */
  readonly defaultJob?: string;
  /** Text flags the jobs take themselves, handed over in `JobOptions.flags`, e.g. `archive-url`. */
  readonly jobFlags?: readonly string[];
  /** `--help`: usage, options and exit codes. */
  readonly help: string;
}

let programName = 'scheduler';

function fail(message: string): never {
  process.stderr.write(`${programName}: ${message}\n`);
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

function parse(argv: string[], program: SchedulerProgram) {
  const jobFlags = program.jobFlags ?? [];
  const text = ['lease', 'label', 'job', 'batch-size', ...jobFlags];
  const options = Object.fromEntries([...Object.keys(DURATIONS), ...text].map((key) => [key, { type: 'string' as const, multiple: key === 'label' }]));
  let values: Record<string, string | undefined>;
  let labelArgs: string[];
  try {
    const parsed = parseArgs({ args: argv, options, strict: true }).values as Record<string, string | string[] | undefined>;
    labelArgs = (parsed.label as string[] | undefined) ?? [];
    values = Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== 'label')) as Record<string, string | undefined>;
  } catch (error) {
    fail((error as Error).message);
  }
  const names = Object.keys(program.jobs).join(', ');
  const jobName =
    values.job ?? program.defaultJob ?? fail(`no job given: name one with --job NAME (one of ${names}), e.g. --job ${Object.keys(program.jobs)[0]}`);
  const makeJob = Object.hasOwn(program.jobs, jobName) ? program.jobs[jobName]! : fail(`--job: one of ${names}, got ${JSON.stringify(jobName)}`);
  const labels = parseLabelFlags(labelArgs);
  if (!labels.ok) fail(labels.message);
  for (const flag of jobFlags) {
    const refusal =
      values[flag] === undefined ? null : urlPasswordRefusal(`--${flag}`, values[flag], "give the job's credentials in its environment or a file it reads");
    if (refusal !== null) fail(refusal);
  }
  const flags = Object.fromEntries(jobFlags.flatMap((flag) => (values[flag] === undefined ? [] : [[flag, values[flag]]])));
  const jobOptions: JobOptions = {
    flags,
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
    return { job, config: schedulerConfig({ name: values.lease ?? job.name, label: labels.display, labels: labels.labels, ...numbers }) };
  } catch (error) {
    if (error instanceof LeaseConfigError || error instanceof JobDefinitionError) fail(error.message);
    throw error;
  }
}

/** The options every scheduler program takes, for its help text. */
export const COMMON_OPTIONS = `options (times are durations with a unit: 250ms, 15s, 2m, 1h):
  --job NAME  --lease NAME  --label TEXT (display)  --label KEY=VALUE (a scheduler label, repeatable)  --batch-size N
  --ttl 15s  --renew-every 5s  --renew-deadline 10s  --safety-margin 2s
  --report-every 2s  --every DURATION  --batch-work 100ms  --stall-after 5m  --overdue-after 5m
signals: SIGUSR1 toggles freeze progress, SIGUSR2 toggles drop reports, SIGTERM/SIGINT stop.
database: DATABASE_URL, else the running demo's.
exit codes: 0 stopped (the lease released); 2 bad options, no job named, or no database.
`;

export const HELP = `usage: leaseboard scheduler --job NAME [--lease NAME] [--label A] [options]   (npm run scheduler -- …)

Runs the job --job (required; one of ${Object.keys(JOBS).join(', ')}) under the lease --lease
(default: the job's name), one JSON line per runtime event on stdout.

${COMMON_OPTIONS}`;

/** `leaseboard scheduler`: Leaseboard's own jobs (lib/jobs), one named with --job. */
export const LEASEBOARD_SCHEDULER: SchedulerProgram = { name: 'scheduler', jobs: JOBS, help: HELP };

export function run(argv: string[]): Promise<void> {
  return runScheduler(argv, LEASEBOARD_SCHEDULER);
}

/** Runs until stopped by a signal (or the parent's going away); exits the process itself. */
export async function runScheduler(argv: string[], program: SchedulerProgram): Promise<void> {
  programName = program.name;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(program.help);
    process.exit(0);
  }
  const { job, config } = parse(argv, program);
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

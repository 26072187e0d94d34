/**
 * `leaseboard run [--lease NAME] [--every 1h] [--label team=payments] [--once] … -- COMMAND ARGS…`:
 * the exec runner. Any program under a lease: the runtime (lib/scheduler) holds
 * and renews the lease and runs COMMAND once per cadence slot, as that slot's
 * occurrence (lib/jobs/exec). Prints one JSON line per event on stdout (the
 * runtime's and the child's); the child's own stdout and stderr go to stderr.
 *
 * Exit codes: 0 stopped by SIGTERM/SIGINT (the lease released), or with
 * `--once` the occurrence completed; with `--once` and a failed command, the
 * command's exit code (1–255); 2 bad options or no database; 3 with `--once`,
 * the command was stopped because the lease was lost.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listenToParent } from '../child/json-line-process';
import { DEFAULT_GRACE_MS, DEFAULT_TAIL_BYTES, execJob, type ExecEvent, passEnvRefusal } from '../jobs';
import { LeaseConfigError } from '../lease';
import { parseLabelFlags } from './label-flags';
import { DurationError, parseDuration } from '../config';
import { createPool, createReadOnlyPool, JobDefinitionError, type RuntimeEvent, SchedulerRuntime, schedulerConfig } from '../scheduler';
import { databaseUrl } from './running-database';

export const HELP = `usage: leaseboard run [options] -- COMMAND [ARGS…]

Runs COMMAND once per cadence slot under the lease NAME: only the holder runs
it, each run is that slot's occurrence, and the dashboard shows it like any
scheduler. The child gets LEASEBOARD_LEASE, LEASEBOARD_EPOCH and
LEASEBOARD_OCCURRENCE, and of this runner's environment only PATH, HOME,
LANG, LC_*, TZ, USER, TMPDIR and what --pass-env names (never a database URL,
token or password of Leaseboard's); it reports progress as JSON lines {"cursor": N} on
file descriptor 3; its exit code ends the occurrence (0 completed, N failed).

options:
  --lease NAME          lease (and scheduler) name; default: COMMAND's base name
  --every DURATION      cadence, e.g. 90s, 5m, 1h, 1d (default 1h; 1s–24d); cron is not accepted yet
  --ttl DURATION        lease time to live (default 15s); renewal every ttl/3
  --grace DURATION      on lease loss: SIGTERM, then SIGKILL after this (default ${DEFAULT_GRACE_MS / 1000}s)
  --tail BYTES          output kept for a failure's child_exited event (default ${DEFAULT_TAIL_BYTES}; 0: none)
  --report-every DURATION  progress report cadence (default 2s)
  --label KEY=VALUE     a label of the scheduler, e.g. --label team=payments (repeat for
                        more; at most 32; Kubernetes' key and value rules); lists and
                        ?selector=team=payments find it by them
  --label TEXT          (no "=") display label of this instance, e.g. A
  --pass-env NAME[,NAME…]  give the child these variables of this environment too (repeatable)
  --pass-database-url   give the child DATABASE_URL (not given otherwise)
  --once                exit after the first occurrence ends
  --help                this text

database: DATABASE_URL, else the running demo's (npm run demo).
output: one JSON line per event on stdout; the child's stdout and stderr on stderr.
exit codes: 0 stopped by SIGTERM/SIGINT, or --once and the command succeeded;
  N (--once) the command failed with exit code N; 2 bad options or no database;
  3 (--once) the command was stopped because the lease was lost.
`;

function fail(message: string): never {
  process.stderr.write(`run: ${message}\n(leaseboard run --help)\n`);
  process.exit(2);
}

/** The longest duration accepted: cadences are stored, and timers set, in 32-bit milliseconds (24 days). */
const MAX_DURATION_MS = 2 ** 31 - 1;

function duration(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  let ms: number;
  try {
    ms = parseDuration(raw);
  } catch (error) {
    if (!(error instanceof DurationError)) throw error;
    const cron = /\s|\*/.test(raw.trim()) ? ' (cron expressions are not accepted yet)' : '';
    fail(`--${flag}: ${error.message}${cron}`);
  }
  if (ms > MAX_DURATION_MS) fail(`--${flag}: at most 24d, got ${raw}`);
  return ms;
}

/** A lease name from a command's base name: lowercase letters, digits and dashes. */
export function leaseNameFor(command: string): string {
  const base = path
    .basename(command)
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, '');
  return base.replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'command';
}

export function parseRunArgs(argv: string[]) {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const commandLine = split === -1 ? [] : argv.slice(split + 1);
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: own,
      strict: true,
      options: {
        lease: { type: 'string' },
        every: { type: 'string' },
        ttl: { type: 'string' },
        grace: { type: 'string' },
        tail: { type: 'string' },
        'report-every': { type: 'string' },
        label: { type: 'string', multiple: true },
        'pass-env': { type: 'string', multiple: true },
        'pass-database-url': { type: 'boolean' },
        once: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const [command, ...args] = commandLine;
  if (command === undefined) fail('no command: leaseboard run [options] -- COMMAND [ARGS…]');
  const labels = parseLabelFlags((values.label as string[] | undefined) ?? []);
  if (!labels.ok) fail(labels.message);
  const tailRaw = values.tail as string | undefined;
  if (tailRaw !== undefined && !/^\d{1,7}$/.test(tailRaw)) fail(`--tail: a whole number of bytes up to 9999999, got ${JSON.stringify(tailRaw.slice(0, 40))}`);
  const ttlMs = duration('ttl', values.ttl as string | undefined, 15_000);
  const passEnv = ((values['pass-env'] as string[] | undefined) ?? []).flatMap((list) => list.split(',')).map((name) => name.trim());
  for (const name of passEnv) {
    const refusal = passEnvRefusal(name);
    if (refusal !== null) fail(`--pass-env: ${refusal}`);
  }
  return {
    command,
    args,
    lease: (values.lease as string | undefined) ?? leaseNameFor(command),
    everyMs: duration('every', values.every as string | undefined, 3_600_000),
    // The default timing's proportions (15 s : 5 s : 10 s : 2 s), scaled to the ttl asked for.
    timing: { ttlMs, renewEveryMs: Math.round(ttlMs / 3), renewDeadlineMs: Math.round((ttlMs * 2) / 3), safetyMarginMs: Math.round((ttlMs * 2) / 15) },
    graceMs: duration('grace', values.grace as string | undefined, DEFAULT_GRACE_MS),
    reportEveryMs: duration('report-every', values['report-every'] as string | undefined, 2_000),
    tailBytes: tailRaw === undefined ? DEFAULT_TAIL_BYTES : Number(tailRaw),
    label: labels.display,
    labels: labels.labels,
    passEnv,
    passDatabaseUrl: values['pass-database-url'] === true,
    once: values.once === true,
  };
}

/** Runs until stopped by a signal (or, with --once, the first occurrence's end); exits the process itself. */
export async function run(argv: string[]): Promise<void> {
  const options = parseRunArgs(argv);
  const url = databaseUrl(fail);
  const print = (line: RuntimeEvent | ExecEvent | object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  let job, config;
  try {
    job = execJob({
      lease: options.lease,
      everyMs: options.everyMs,
      command: options.command,
      args: options.args,
      graceMs: options.graceMs,
      tailBytes: options.tailBytes,
      env: process.env,
      passEnv: options.passEnv,
      databaseUrl: options.passDatabaseUrl ? url : null,
      output: (chunk) => process.stderr.write(chunk),
      onEvent: print,
    });
    config = schedulerConfig({
      name: options.lease,
      label: options.label,
      labels: options.labels,
      reportEveryMs: options.reportEveryMs,
      batchWorkMs: 0,
      ...options.timing,
    });
  } catch (error) {
    if (error instanceof LeaseConfigError || error instanceof JobDefinitionError) fail(error.message);
    throw error;
  }
  const pool = createPool(url, { applicationName: 'leaseboard-run', max: 3 });
  const readDb = createReadOnlyPool(url, { applicationName: 'leaseboard-run', max: 1 });
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    await Promise.all([pool.end(), readDb.end()]);
    process.exit(code);
  };
  const runtime = new SchedulerRuntime(job, config, {
    db: pool,
    readDb,
    onEvent: (event) => {
      print(event);
      if (!options.once) return;
      if (event.event === 'occurrence_completed') void shutdown(0);
      if (event.event === 'occurrence_failed') void shutdown(event.exitCode);
      if (event.event === 'lost') void shutdown(3);
    },
  });
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  // Started by a supervisor (LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1): stop, child and all, when it is gone.
  listenToParent(
    () => {},
    () => void shutdown(0),
  );
  print({ event: 'started', token: runtime.token, lease: options.lease, everyMs: options.everyMs, graceMs: options.graceMs });
  runtime.start();
}

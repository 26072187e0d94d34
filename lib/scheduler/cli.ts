/**
 * `npm run scheduler -- --lease NAME [--label A] [--ttl MS] [--renew-every MS] …`
 *
 * Starts one scheduler process (one instance token), prints one JSON line
 * `{"event":"started","pid":…,"token":"inst_…",…}`, then one JSON line per
 * runtime event. Database: DATABASE_URL, else the running demo's.
 * Signals: SIGUSR1 toggles freeze progress, SIGUSR2 toggles drop reports,
 * SIGTERM/SIGINT stop work, release the lease and exit 0. With
 * LEASEBOARD_EXIT_WITH_PARENT=1 (set by supervisors) it also stops when its
 * stdin closes, i.e. when the process that started it is gone.
 * Bad options: a message on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { createPool } from '../../db/pool';
import { LeaseConfigError } from '../lease/config';
import { LABEL_PATTERN } from '../lease/token';
import { schedulerConfig } from './config';
import type { RuntimeEvent } from './events';
import { runningDatabaseUrl } from './running-database';
import { SchedulerRuntime } from './runtime';

const NUMERIC = {
  ttl: 'ttlMs',
  'renew-every': 'renewEveryMs',
  'renew-deadline': 'renewDeadlineMs',
  'safety-margin': 'safetyMarginMs',
  'report-every': 'reportEveryMs',
  every: 'everyMs',
  'batch-size': 'batchSize',
  'batch-work': 'batchWorkMs',
  'stall-after': 'stallAfterMs',
  'overdue-after': 'overdueAfterMs',
} as const;

function fail(message: string): never {
  process.stderr.write(`scheduler: ${message}\n`);
  process.exit(2);
}

function parseConfig(argv: string[]) {
  const options = Object.fromEntries(Object.keys(NUMERIC).map((key) => [key, { type: 'string' as const }]));
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, lease: { type: 'string' }, label: { type: 'string' } }, strict: true }) as {
      values: Record<string, string | undefined>;
    });
  } catch (error) {
    fail((error as Error).message);
  }
  if (!values.lease) fail('--lease NAME is required');
  if (values.label !== undefined && !LABEL_PATTERN.test(values.label)) fail('--label: 1–32 letters, digits, spaces, _ . -');
  const numbers: Record<string, number> = {};
  for (const [flag, field] of Object.entries(NUMERIC)) {
    const raw = values[flag];
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw)) fail(`--${flag}: expected whole milliseconds, got ${JSON.stringify(raw)}`);
    numbers[field] = Number(raw);
  }
  try {
    return schedulerConfig({ name: values.lease, label: values.label ?? null, ...numbers });
  } catch (error) {
    if (error instanceof LeaseConfigError) fail(error.message);
    throw error;
  }
}

async function main() {
  const config = parseConfig(process.argv.slice(2));
  const url = process.env.DATABASE_URL ?? runningDatabaseUrl();
  if (!url) fail('no database: set DATABASE_URL, or start `npm run demo` first');
  const pool = createPool(url, { applicationName: 'leaseboard-scheduler', max: 4 });
  const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const runtime = new SchedulerRuntime(config, { db: pool, onEvent: (event: RuntimeEvent) => print(event) });
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGUSR1', () => runtime.setFrozen(!runtime.snapshot().frozen));
  process.on('SIGUSR2', () => runtime.setDroppingReports(!runtime.snapshot().droppingReports));
  // Started by a supervisor: stop (gracefully) when it is gone, even if it was SIGKILLed.
  if (process.env.LEASEBOARD_EXIT_WITH_PARENT === '1') {
    process.stdin.on('end', () => void shutdown());
    process.stdin.resume();
  }
  // Announce only once the signal handlers are in place: a supervisor may signal at once.
  print({ event: 'started', pid: process.pid, token: runtime.token, lease: config.lease.name, label: config.label });
  runtime.start();
}

void main();

/**
 * `npm run demo`: the whole product on one machine. Starts the database
 * (embedded under .data/ unless DATABASE_URL), migrates it (the product's migrations, then the
 * demo's own: its tables in the schema leaseboard_demo, ./db) and seeds it, builds
 * the dashboard when its sources changed, starts the archive service (the
 * external fenced resource, ./archive), serves the dashboard on 127.0.0.1,
 * and runs the demo's job (./scheduler.ts) in two scheduler processes for `retention-planner` and one
 * for `index-compaction` with short demo timings, fault buttons included. The
 * dashboard hosts the alert evaluator; when the Alertmanager binary is
 * installed (Debian `prometheus-alertmanager`) a local one runs with a
 * webhook receiver whose notifications are printed here, and the dashboard
 * delivers to it — and first to every ALERTMANAGER_URL you set (it says so
 * at start); without either it says how to install one. Links in alerts
 * follow LEASEBOARD_PUBLIC_URL when set, else the dashboard's own address.
 * Ctrl-C stops everything; a second run reuses the data. The schedulers,
 * the dashboard's reads, its operator actions and its hosted jobs each log in
 * as their own database role (db/roles.ts; a fresh password every run).
 *
 * Stopping (SIGINT, SIGTERM, or whoever started it gone: reparented, or its
 * stdout/stderr closed — lib/child/parent.ts): everything that holds a lease
 * stops first, together (dashboard, schedulers, archive, Alertmanager), then
 * the database; the whole stop has a deadline (STOP_DEADLINE_MS), after which
 * it exits anyway and every child, its stdin closed, stops itself.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '../../db/free-port';
import { migrateDatabase } from '../../db/migrate';
import { createPool } from '../../db/pool';
import { ensureLoginRoles, type LoginUrls } from '../../db/roles';
import { startLocalAlertmanager } from '../../lib/alerts/local/alertmanager';
import { ArchiveProcess } from './archive/process';
import { shutdownWithin, watchParent } from '../../lib/child/parent';
import { startControlServer } from './control-server';
import { migrateDemo } from './db/migrate';
import { ensureBuild, runDashboard } from './next-build';
import { type DemoSchedulerSpec, DemoSupervisor } from './supervisor';
import { seedDocuments } from './retention-planner/documents';
import { clearRunningDatabase, writeRunningDatabase } from '../../lib/cli/running-database';
import { servedBasePath } from '../../lib/server/env';

const ROOT = path.resolve(__dirname, '../..');

/** Short timings so a review sees a takeover within seconds. */
const DEMO_FLAGS = {
  ttl: 6_000,
  'renew-every': 2_000,
  'renew-deadline': 4_000,
  'safety-margin': 1_000,
  'report-every': 1_000,
  'batch-size': 500,
  'batch-work': 250,
  'stall-after': 15_000,
  'overdue-after': 20_000,
};

/** All run the retention-planner job, exporting each occurrence's summary to the archive (with its writers' token). */
const schedulers = (archive: { url: string; token: string }): DemoSchedulerSpec[] => {
  const exporting = { options: { 'archive-url': archive.url }, env: { LEASEBOARD_ARCHIVE_TOKEN: archive.token } };
  return [
    { id: 'retention-planner-A', lease: 'retention-planner', label: 'A', flags: { ...DEMO_FLAGS, every: 60_000 }, ...exporting },
    { id: 'retention-planner-B', lease: 'retention-planner', label: 'B', flags: { ...DEMO_FLAGS, every: 60_000 }, ...exporting },
    { id: 'index-compaction-C', lease: 'index-compaction', label: 'C', flags: { ...DEMO_FLAGS, every: 45_000, 'batch-size': 1_000 }, ...exporting },
  ];
};

const log = (line: string) => console.log(`[demo] ${line}`);

/** Alert timings short enough to watch (the defaults wait minutes); SchedulerStalled fires 20 s after a scheduler reads stalled. */
const DEMO_ALERT_ENV = {
  LEASEBOARD_ALERT_EVALUATE_EVERY: '2s',
  LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '20s',
  LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR: '30s',
  LEASEBOARD_ALERT_SCHEDULER_NO_LEADER_FOR: '30s',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR: '20s',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_KEEP_FIRING_FOR: '20s',
  LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR: '10s',
};

async function portToUse(): Promise<number> {
  const wanted = Number(process.env.PORT ?? 3000);
  const net = await import('node:net');
  const free = await new Promise<boolean>((resolve) => {
    const server = net.createServer().once('error', () => resolve(false));
    server.listen(wanted, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  return free ? wanted : freePort();
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The database in its own process group (db/embedded-server.ts): Ctrl-C reaches the schedulers first. */
async function startDatabase(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'db/embedded-server.ts')], {
    cwd: ROOT,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  readline.createInterface({ input: child.stderr }).on('line', (line) => log(line));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the database process exited (${code})`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A login per kind of work for this database (db/roles.ts), or null where this user may not create roles (said in the log). */
async function loginRolesFor(pool: Pool, url: string): Promise<LoginUrls | null> {
  const client = await pool.connect();
  try {
    const logins = await ensureLoginRoles(client, url);
    log('database roles: schedulers, operator actions and status reads each log in as their own role; only the setup uses DATABASE_URL');
    return logins;
  } catch (error) {
    log(`database roles: no login roles (${error instanceof Error ? error.message : String(error)}): every process uses DATABASE_URL's user`);
    return null;
  } finally {
    client.release();
  }
}

/** The whole stop: the leases' holders, then the database. Past it, children stop themselves (their stdin closes with this process). */
const STOP_DEADLINE_MS = 10_000;

async function main() {
  const database = await startDatabase();
  // What holds a lease or serves stops first, all together; the database last.
  const cleanups: (() => Promise<unknown>)[] = [];
  const run = (steps: (() => Promise<unknown>)[]) => Promise.all(steps.map((step) => step().catch((error) => log(`cleanup: ${String(error)}`))));
  const stop = shutdownWithin(
    STOP_DEADLINE_MS,
    async (why) => {
      log(`stopping (${why})…`);
      await run(cleanups);
      await run([async () => clearRunningDatabase(), () => database.stop()]);
      log('stopped; nothing left running');
    },
    log,
  );
  const shuttingDown = () => stop.started;
  const shutdown = (code: number, why = 'failed') => stop(why, code);
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Started by a CI job or a supervisor that is gone (SIGKILLed, its pipes closed): stop too.
  watchParent((why) => stop(`parent gone: ${why}`), { stdin: false });
  try {
    await migrateDatabase(database.url);
    await migrateDemo(database.url);
    const pool = createPool(database.url, { applicationName: 'leaseboard-demo' });
    log(`documents: ${await seedDocuments(pool)} synthetic documents`);
    const { rows: size } = await pool.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    log(`database size at start: ${size[0]!.size} (steady state about 0.6 GB at the default retention: docs/operations.md "Retention and disk")`);
    const logins = await loginRolesFor(pool, database.url);
    await pool.end();
    // The command-line tools join as the login of their kind of work, never as the migrator (here a superuser).
    writeRunningDatabase(logins ?? { reader: database.url, operator: database.url, scheduler: database.url });
    await ensureBuild(ROOT, log);

    // The external resource: it refuses a lower epoch than it has seen (409), and says so.
    const archive = await ArchiveProcess.start((line) => line.event === 'rejected' && console.log(`[archive] ${JSON.stringify(line)}`));
    cleanups.push(() => archive.process.stop());
    log(`archive: ${archive.url} (GET /v1/leases/retention-planner/objects; writes need the token it shares with the schedulers)`);

    const supervisor = new DemoSupervisor(logins?.scheduler ?? database.url, (id, line) => console.log(`[${id}] ${line}`));
    const control = await startControlServer(supervisor);
    cleanups.push(
      () => control.close(),
      () => supervisor.stopAll(),
    );
    for (const spec of schedulers(archive)) supervisor.start(spec);

    // Alerts: a local Alertmanager with a webhook receiver standing in for the pager, when installed.
    const alerting = await startLocalAlertmanager({
      onNotification: ({ body }) => {
        for (const alert of body.alerts) {
          const on = alert.labels.scheduler ? ` ${alert.labels.scheduler}` : '';
          const span = alert.status === 'firing' ? `since ${alert.startsAt}` : `${alert.startsAt} → ${alert.endsAt}`;
          console.log(`[alertmanager] notified: ${alert.status} ${alert.labels.alertname}${on} (${span})`);
        }
      },
    });
    if (alerting.kind === 'started') cleanups.push(() => alerting.am.close());
    // Yours first (the dashboard links the first one: silences), then the demo's own, which prints what it receives.
    const yours = (process.env.ALERTMANAGER_URL ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const alertmanagers = [...yours, ...(alerting.kind === 'started' ? [alerting.am.url] : [])];
    if (alerting.kind === 'missing') log(`alerts: no Alertmanager of the demo's own — ${alerting.hint}`);
    if (alertmanagers.length === 0) log('alerts: evaluated and shown on the dashboard, delivered nowhere (set ALERTMANAGER_URL, or install Alertmanager)');

    // Local operator sign-in: a token printed once, and a session-signing secret that never leaves this process tree.
    const operatorToken = randomBytes(24).toString('base64url');
    const port = await portToUse();
    const url = `http://127.0.0.1:${port}${servedBasePath()}`;
    const next = runDashboard(ROOT, ['-p', String(port), '-H', '127.0.0.1'], {
      env: {
        ...process.env,
        // Least privilege (db/roles.ts): the dashboard reads, acts for operators and hosts its jobs each as its own login,
        // and never holds the migrator's; without the right to create roles, DATABASE_URL's user does all three.
        ...(logins === null
          ? { DATABASE_URL: database.url }
          : {
              DATABASE_URL: logins.reader,
              LEASEBOARD_READER_DATABASE_URL: logins.reader,
              LEASEBOARD_ACTIONS_DATABASE_URL: logins.operator,
              LEASEBOARD_SCHEDULER_DATABASE_URL: logins.scheduler,
            }),
        LEASEBOARD_DEMO_CONTROL_URL: control.url,
        LEASEBOARD_DEMO_CONTROL_TOKEN: control.token,
        LEASEBOARD_OPERATOR_TOKEN: operatorToken,
        LEASEBOARD_SESSION_SECRET: randomBytes(32).toString('base64url'),
        NEXT_TELEMETRY_DISABLED: '1',
        ...DEMO_ALERT_ENV,
        ...(alertmanagers.length > 0 ? { ALERTMANAGER_URL: alertmanagers.join(',') } : {}),
        // A young generation big enough for one refresh's projections (~10k statuses):
        // halves the projection's GC time at 10,000 schedulers (bench:status).
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=64`.trim(),
      },
    });
    next.stdout.on('data', (chunk: Buffer) => process.stdout.write(`[dashboard] ${chunk}`));
    next.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[dashboard] ${chunk}`));
    next.on('exit', (code) => !shuttingDown() && (log(`dashboard exited (${code})`), shutdown(1, 'dashboard exited')));
    const nextExited = new Promise((resolve) => next.once('exit', resolve));
    cleanups.push(async () => {
      // A terminal's Ctrl-C may have stopped it already (signalCode set, exitCode null).
      if (next.exitCode === null && next.signalCode === null) next.kill('SIGTERM');
      await nextExited;
    });
    // A production server answers in seconds; on a busy 2-core machine (load average 17) it took over 60 s.
    await waitForHttp(`${url}/api/healthz`, 120_000);
    log(`dashboard: ${url}  (fault buttons on each scheduler's page; Ctrl-C stops everything)`);
    log(`operator token (printed once; sign in at ${url}/login to disable schedulers and use the fault buttons): ${operatorToken}`);
    if (yours.length > 0)
      log(`alerts: delivered to ALERTMANAGER_URL (${yours.join(', ')})${alerting.kind === 'started' ? " and to the demo's own Alertmanager" : ''}`);
    if (alerting.kind === 'started') {
      log(`alerts: the demo's Alertmanager ${alerting.am.url} (its UI: silences), notifications printed here as [alertmanager] lines`);
    }
    log(
      `alerts: every rule starts in shadow (shown, never delivered). To deliver one, sign in and use ${url}/alerts, or: npm run alerts -- mode --rule SchedulerStalled --mode on --by YOU --reason "demo"`,
    );
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    shutdown(1);
  }
}

void main();

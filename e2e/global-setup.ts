/**
 * One environment for the whole run:
 * 1. a fresh migrated database (DATABASE_URL's server, else an embedded one),
 *    seeded with synthetic documents for the schedulers to plan over;
 * 2. the production server (scripts/serve.ts) of the suite's own build
 *    (support/build.ts: made here when its sources changed, or ahead by
 *    `npm run build:e2e`; checked to carry our base path), with a local
 *    operator token and an SSO proxy trusted only at 127.0.0.2, reading,
 *    acting for operators and hosting its jobs each as its own database
 *    login (db/roles.ts; dropped at teardown);
 * 3. a loopback proxy that serves only the base-path prefix;
 * 4. a real Alertmanager (Debian `prometheus-alertmanager`, loopback) the
 *    server's hosted alert evaluator delivers to, with short alert timings
 *    (SchedulerStalled fires 3 s after the scheduler reads stalled).
 * Their addresses go to the specs through the environment (e2e-env.ts).
 * Teardown stops the server it started (by its process group) and drops the database.
 */
import type { ChildProcess } from 'node:child_process';
import type { FullConfig } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../db/free-port';
import pg from 'pg';
import { createPool } from '../db/pool';
import { dropLoginRoles, ensureLoginRoles } from '../db/roles';
import { createTestDatabase } from '../db/testing/test-database';
import { buildChildBundles, CHILD_BUNDLES_ENV } from '../lib/child/testing/bundles';
import { runDashboard } from '../examples/demo/next-build';
import { seedDocuments } from '../examples/demo/retention-planner/documents';
import { startLocalAlertmanager } from '../lib/alerts/local/alertmanager';
import { E2E_BUILD_ENV, ensureE2eBuild } from './support/build';
import { E2E_BASE_PATH, E2E_SSO } from './support/e2e-env';
import { startPrefixProxy } from './support/prefix-proxy';

const ROOT = path.resolve(__dirname, '..');
// The dashboard's poll (and so its staleness: two intervals without an answer read unknown). At 1 s, a loaded
// machine's slow answer on a 1,000-scheduler page tipped whole pages into "not observed" mid-assertion, and
// each tab re-rendered every second; 2 s keeps fault timings short (ttl 3 s) at half the polling.
const POLL_INTERVAL_MS = 2_000;
const DOCUMENTS = 20_000;

function assertBuiltWithBasePath(): void {
  const manifest = path.join(ROOT, E2E_BUILD_ENV.LEASEBOARD_HARNESS_DIST_DIR, 'required-server-files.json');
  const basePath = (JSON.parse(readFileSync(manifest, 'utf8')) as { config?: { basePath?: string } }).config?.basePath ?? '';
  if (basePath !== E2E_BASE_PATH) throw new Error(`e2e: the build has basePath "${basePath}", the suite needs "${E2E_BASE_PATH}"`);
}

async function waitUntilServing(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`e2e: next start exited with ${server.exitCode} (see e2e-server.log in the output folder)`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`e2e: ${url} did not answer within ${timeoutMs} ms`);
}

function stopServer(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve();
    const kill = setTimeout(() => process.kill(-server.pid!, 'SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    process.kill(-server.pid!, 'SIGTERM');
  });
}

export default async function globalSetup(config: FullConfig) {
  await ensureE2eBuild();
  assertBuiltWithBasePath();
  const database = await createTestDatabase((line) => console.log(`[e2e] ${line}`));
  // Scheduler and archive processes the specs start run from prebuilt bundles (lib/child/testing/bundles.ts).
  const bundles = await buildChildBundles();
  process.env[CHILD_BUNDLES_ENV] = bundles.dir;
  const pool = createPool(database.url, { applicationName: 'leaseboard-e2e-setup' });
  await seedDocuments(pool, DOCUMENTS);
  const setup = await pool.connect();
  const logins = await ensureLoginRoles(setup, database.url).finally(() => setup.release());
  await pool.end();

  const alertmanager = await startLocalAlertmanager();
  if (alertmanager.kind === 'missing') throw new Error(`e2e: ${alertmanager.hint}`);
  const am = alertmanager.am;

  const port = await freePort();
  const operatorToken = randomBytes(24).toString('base64url');
  const directUrl = `http://127.0.0.1:${port}${E2E_BASE_PATH}`;
  const outputDir = config.projects[0]?.outputDir ?? path.join(ROOT, 'test-results');
  mkdirSync(outputDir, { recursive: true });
  const log = createWriteStream(path.join(outputDir, 'e2e-server.log'));
  // Started exactly as `npm start` starts it: `-p` only, and no HOST even when the caller's shell has one
  // (e2e/loopback-only.spec.ts checks that it listens on loopback alone).
  const serverEnv = { ...E2E_BUILD_ENV };
  delete serverEnv.HOST;
  const server = runDashboard(ROOT, ['-p', String(port)], {
    detached: true,
    env: {
      ...serverEnv,
      NODE_ENV: 'production',
      // Least privilege, as the demo runs it: no process of the server holds the migrator's login.
      DATABASE_URL: logins.reader,
      LEASEBOARD_READER_DATABASE_URL: logins.reader,
      LEASEBOARD_ACTIONS_DATABASE_URL: logins.operator,
      LEASEBOARD_SCHEDULER_DATABASE_URL: logins.scheduler,
      LEASEBOARD_POLL_INTERVAL: `${POLL_INTERVAL_MS}ms`,
      // Both identity sources: a local operator token, and an SSO proxy that is
      // trusted only at E2E_SSO.proxyAddress (the prefix proxy and the browser are not it).
      // That address is a loopback one, which the server refuses unless told it is on purpose.
      LEASEBOARD_OPERATOR_TOKEN: operatorToken,
      LEASEBOARD_SESSION_SECRET: randomBytes(32).toString('base64url'),
      LEASEBOARD_AUTH_HEADER: E2E_SSO.header,
      LEASEBOARD_TRUSTED_PROXIES: E2E_SSO.proxyAddress,
      LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES: '1',
      LEASEBOARD_OPERATORS: E2E_SSO.operator,
      // The hosted alert evaluator: delivered to the suite's Alertmanager, short timings. No
      // LEASEBOARD_PUBLIC_URL: links in alerts follow the address the server listens on (alerts.spec.ts).
      ALERTMANAGER_URL: am.url,
      LEASEBOARD_ALERT_EVALUATE_EVERY: '1s',
      LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '3s',
      LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR: '0s',
    },
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  await waitUntilServing(`${directUrl}/api/healthz`, server, 60_000);
  const proxy = await startPrefixProxy(E2E_BASE_PATH, port);
  console.log(`[e2e] dashboard server on ${directUrl}; proxy ${proxy.origin}${E2E_BASE_PATH}`);

  process.env.E2E_BASE_URL = `${proxy.origin}${E2E_BASE_PATH}`;
  process.env.E2E_DIRECT_URL = directUrl;
  process.env.E2E_PROXY_ORIGIN = proxy.origin;
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_POLL_INTERVAL_MS = String(POLL_INTERVAL_MS);
  process.env.E2E_OPERATOR_TOKEN = operatorToken;
  process.env.E2E_ALERTMANAGER_URL = am.url;

  return async () => {
    await proxy.close();
    await stopServer(server);
    await am.close();
    log.end();
    // The logins first: dropping the database may stop its (embedded) server.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await dropLoginRoles(admin, new URL(database.url).pathname.slice(1)).finally(() => admin.end());
    await database.drop();
    await bundles.remove();
  };
}

/**
 * `leaseboard start` and `npm start` (scripts/serve.ts): the dashboard's
 * production server (lib/host/dashboard-server.ts), from the Next.js build in
 * `dir` (the repository, or the package's app). `npm run dev`: the same
 * server in development mode (`--dev`).
 * Options: `--config FILE` (YAML or JSON, docs/configuration.md), `-p/--port`
 * (PORT, default 3000), `-H/--hostname` (HOST, default 127.0.0.1 — set
 * HOST=0.0.0.0 deliberately to listen everywhere). First of all it resolves
 * the configuration (lib/config: defaults < file < environment < flags) and
 * stops, exit 2, on a mistyped LEASEBOARD_ variable, an unknown file key or a
 * value out of range, naming it; values from the file and flags are handed
 * on as environment variables, so the Next.js bundle resolves the same.
 * It also hosts Leaseboard's own jobs (lib/host/hosted-jobs.ts) when
 * DATABASE_URL is set, connected as LEASEBOARD_SCHEDULER_DATABASE_URL (the
 * schedulers' login, db/roles.ts) when set; it warns at start for each per-role
 * login left unset (that part then logs in as DATABASE_URL's user).
 * At start it checks the auth settings (a bad one: exit 2, naming it), says
 * which risks it accepted and which settings are deprecated, and which URL
 * links in alerts carry: LEASEBOARD_PUBLIC_URL, else the address it listens
 * on (with the base path). SIGTERM/SIGINT stop the jobs (releasing their leases),
 * then close the server; exit 0 — or exit 1 if that takes longer than
 * SHUTDOWN_DEADLINE_MS (a database that is gone, a connection that never
 * drains). With LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1 it also stops when whoever
 * started it is gone (lib/child/parent.ts). Output to a closed stdout or
 * stderr is dropped, never an error (lib/child/stdio.ts). With
 * OTEL_EXPORTER_OTLP_ENDPOINT set it exports traces (lib/telemetry; imported
 * first, before anything loads `pg`).
 * Bad options: a message on stderr and exit code 2.
 */
import { tracing } from '../telemetry/register';
import { parseArgs } from 'node:util';
import { parseAllowedHosts } from '../host/allowed-hosts';
import { startDashboardServer } from '../host/dashboard-server';
import { listenToParent, SHUTDOWN_DEADLINE_MS, shutdownWithin } from '../child/parent';
import { guardStdio } from '../child/stdio';
import { hostedJobs, startHostedJobs } from '../host/hosted-jobs';
import { type AuthConfig, authConfig } from '../auth/config';
import { servedBasePath, serverEnv } from '../server/env';
import { accessBudget, checkAccess } from '../auth/access';
import type pg from 'pg';
import { pgServiceTokenStore } from '../auth/service-tokens';
import { pgSessionStore } from '../auth/session-store';
import { createPool } from '../../db/pool';
import { ConfigError, exportToEnvironment, loadConfig, type ResolvedConfig, SETTINGS } from '../config';

/** The per-role logins (db/roles.ts) the status reads, the operator actions and the hosted jobs use when set. */
const ROLE_URLS = ['readerDatabaseUrl', 'actionsDatabaseUrl', 'schedulerDatabaseUrl'] as const;

function fail(message: string): never {
  process.stderr.write(`serve: ${message}\n`);
  process.exit(2);
}

function accessGate(auth: AuthConfig, pool: pg.Pool) {
  const basePath = servedBasePath();
  const sources = {
    auth,
    sessions: pgSessionStore(pool),
    serviceTokens: pgServiceTokenStore(pool),
    basePath,
    ...accessBudget(),
  };
  return (request: Parameters<typeof checkAccess>[1]) => checkAccess(sources, request, Date.now());
}

async function main(dir: string) {
  guardStdio();
  let values: { port?: string; hostname?: string; dev?: boolean; config?: string };
  try {
    ({ values } = parseArgs({
      options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' }, dev: { type: 'boolean' }, config: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  let resolved: ResolvedConfig;
  try {
    resolved = loadConfig({ configFile: values.config ?? null, flags: { port: values.port, host: values.hostname } });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  exportToEnvironment(resolved);
  const settings = resolved.settings;
  let auth: AuthConfig;
  try {
    auth = authConfig();
  } catch (error) {
    fail((error as Error).message);
  }
  for (const note of auth.notes) process.stderr.write(`serve: warning: ${note}\n`);
  // The status service's settings and their relations, checked before listening (a bad one: exit 2, named).
  let pageCacheMs = 0;
  try {
    if (settings.databaseUrl) pageCacheMs = serverEnv().listMaxAgeMs;
  } catch (error) {
    fail((error as Error).message);
  }
  // Who may read (LEASEBOARD_ANONYMOUS), service tokens' scopes and OpenID Connect refreshes: decided in front of
  // every route, with the open sessions and the service tokens read from the operator actions' database login.
  const access = settings.databaseUrl
    ? accessGate(auth, createPool(settings.actionsDatabaseUrl || settings.databaseUrl, { applicationName: 'leaseboard-access', max: 2 }))
    : undefined;
  if (auth.anonymous === 'none' && access === undefined) fail('LEASEBOARD_ANONYMOUS=none needs DATABASE_URL (sessions are kept there)');
  const server = await startDashboardServer({
    access,
    dir,
    host: settings.host ?? undefined,
    port: settings.port,
    dev: values.dev ?? false,
    // The overview's HTML is shared as long as the list read it shows (LEASEBOARD_LIST_MAX_AGE).
    pageCacheMs,
    // Only these hosts are answered (DNS rebinding); https adds HSTS.
    publicUrl: auth.publicUrl?.url ?? null,
    allowedHosts: parseAllowedHosts(settings.allowedHosts),
  });
  console.log(`dashboard: listening on ${server.url}`);
  const linksTo = auth.publicUrl?.url ?? `${server.url}${servedBasePath()}`;
  console.log(
    `dashboard: links in alerts point at ${linksTo} (${auth.publicUrl ? `from ${auth.publicUrl.variable}` : 'the address this server listens on; set LEASEBOARD_PUBLIC_URL to the URL people open'})`,
  );
  if (!auth.publicUrl && /\/\/(0\.0\.0\.0|\[::\])[:/]/.test(linksTo)) {
    process.stderr.write('serve: warning: listening on every interface: nobody can open those links; set LEASEBOARD_PUBLIC_URL\n');
  }
  const databaseUrl = settings.schedulerDatabaseUrl || settings.databaseUrl;
  const sharedLogins = ROLE_URLS.filter((key) => !settings[key]);
  if (settings.databaseUrl && sharedLogins.length > 0) {
    process.stderr.write(
      `serve: warning: ${sharedLogins.map((key) => SETTINGS[key].env).join(', ')} unset: those parts log in as DATABASE_URL's user, not least privilege (db/roles.ts; the reads then rely on SET ROLE and read-only mode, which a session can undo)\n`,
    );
  }
  const log = (line: string) => console.log(line);
  const jobsEnv = { ...process.env, LEASEBOARD_PUBLIC_URL: linksTo };
  const jobs = databaseUrl ? startHostedJobs({ databaseUrl, jobs: hostedJobs(jobsEnv, log), log }) : null;
  const close = shutdownWithin(
    SHUTDOWN_DEADLINE_MS,
    async () => {
      await jobs?.stop();
      await server.close();
      await tracing?.shutdown();
    },
    (line) => process.stderr.write(`serve: ${line}\n`),
  );
  process.on('SIGTERM', () => close('SIGTERM'));
  process.on('SIGINT', () => close('SIGINT'));
  // Started by a supervisor (the demo, the e2e setup): stop when it is gone.
  listenToParent(
    () => {},
    () => close('parent gone'),
  );
}

/** Starts the server on the build in `dir`, or says why not (exit 2 for bad options or settings, else 1). */
export function serve(dir: string): Promise<void> {
  return main(dir).catch((error: unknown) => {
    process.stderr.write(`serve: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

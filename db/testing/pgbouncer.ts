/**
 * A PgBouncer of a test's own in front of the test's PostgreSQL, configured as
 * a team would leave it (nothing added for Leaseboard: no
 * `ignore_startup_parameters`), in transaction or session mode: its files in a
 * temporary folder, a free port, and `stop()` leaves nothing running or on
 * disk. Debian's package `pgbouncer` (1.18) is what CI installs (.ci/run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port';

export type PoolMode = 'transaction' | 'session';

const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((candidate) => existsSync(candidate));

export interface PgBouncer {
  readonly mode: PoolMode;
  /** `url` with its server replaced by this pooler (same user, database and parameters). */
  url(url: string): string;
  /** Everything it printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface Login {
  user: string;
  password: string;
}

/**
 * Starts one in front of `serverUrl`'s server, for its user and any `logins` more. Clients are trusted; it logs in
 * to the server with each login's password (from the URL for its user), as the server asks (SCRAM, md5 or trust).
 */
export async function startPgBouncer(serverUrl: string, mode: PoolMode, logins: Login[] = []): Promise<PgBouncer> {
  if (!BINARY) throw new Error('pgbouncer not found (/usr/sbin/pgbouncer): install the Debian package `pgbouncer` (apt-get install -y pgbouncer)');
  const server = new URL(serverUrl);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'leaseboard-pgbouncer-'));
  // PgBouncer will not run as root: as root it runs as nobody (-u), who must read these files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chmod(dir, 0o755);
  const port = await freePort();
  const own = { user: decodeURIComponent(server.username) || os.userInfo().username, password: decodeURIComponent(server.password) };
  const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const users = [own, ...logins].map((login) => `${quoted(login.user)} ${quoted(login.password)}\n`).join('');
  // Passwords in plain text (the server's SCRAM needs them): readable by its owner alone, unless it must run as nobody.
  await writeFile(path.join(dir, 'users.txt'), users, { mode: asRoot ? 0o644 : 0o600 });
  const config = [
    '[databases]',
    `* = host=${server.hostname || '127.0.0.1'} port=${server.port || '5432'}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    `pool_mode = ${mode}`,
    'max_client_conn = 200',
    'default_pool_size = 20',
  ].join('\n');
  const ini = path.join(dir, 'pgbouncer.ini');
  await writeFile(ini, `${config}\n`, { mode: 0o644 });
  const child = spawn(BINARY, [...(asRoot ? ['-u', 'nobody'] : []), ini], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = (target: string) => {
    const parsed = new URL(target);
    parsed.host = `127.0.0.1:${port}`;
    return parsed.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child);
    await rm(dir, { recursive: true, force: true });
  };
  // Ready once it answers a connection (through to the server: the database must exist).
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new pg.Client({ connectionString: url(serverUrl), connectionTimeoutMillis: 1_000 });
    const ready = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.end().catch(() => {});
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`pgbouncer did not start (${mode} mode, port ${port}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { mode, url, output: () => output, stop };
}

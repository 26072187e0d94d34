/**
 * One PostgreSQL server on this machine, from the machine's own binaries
 * (`/usr/lib/postgresql/15/bin`, or LEASEBOARD_PG_BIN), for the failover
 * tests and drill: start, stop (`immediate` is a crash), promote.
 *
 * Guarantees
 * - Runs as the `postgres` user when this process is root (PostgreSQL
 *   refuses root), as this user otherwise; every file it makes is in `dir`.
 * - Never outlives this process: each running server has a watchdog shell
 *   whose stdin is a pipe from here; when this process ends, however it
 *   ends, the pipe closes and the watchdog stops the server (`immediate`).
 * - Listens on 127.0.0.1 only, no Unix socket, trusts loopback connections.
 * Not guaranteed: durability (fsync is off: a crash of the server is
 * simulated by `immediate`, not a crash of the machine).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdtemp, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { config } from '../../lib/config';

const run = promisify(execFile);

const PG_BIN = config().settings.pgBin ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** argv that runs `binary args…` as the server's owner. */
function asOwner(binary: string, args: string[]): [string, string[]] {
  const full = path.join(PG_BIN, binary);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', full, ...args]] : [full, args];
}

async function pgTool(binary: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const [command, argv] = asOwner(binary, args);
  try {
    const { stdout } = await run(command, argv, { timeout: timeoutMs, cwd: os.tmpdir() });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${binary} ${args[0] ?? ''}: ${(stderr ?? String(error)).trim().split('\n').slice(-3).join(' / ')}`, { cause: error });
  }
}

/** A folder the server's owner may write (this user's, or chowned to postgres). */
export async function ownedDir(parent: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(parent, prefix));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
  }
  return dir;
}

const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  "unix_socket_directories = ''",
  'wal_level = replica',
  'max_wal_senders = 10',
  'max_replication_slots = 10',
  'hot_standby = on',
  'fsync = off',
  'full_page_writes = off',
  'max_connections = 100',
  "shared_buffers = '32MB'",
  'wal_receiver_status_interval = 1s',
];

/** initdb once per machine and binaries (kept in the temp folder); each cluster is a copy. */
async function template(): Promise<string> {
  const version = (await pgTool('pg_ctl', ['--version'])).trim().replace(/\W+/g, '-');
  const dir = path.join(os.tmpdir(), `leaseboard-template-${version}${asRoot ? '-root' : ''}`);
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const building = await ownedDir(os.tmpdir(), 'leaseboard-template-');
  const data = path.join(building, 'data');
  await pgTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  await appendConf(data, SETTINGS);
  await rename(data, dir).catch(async () => {
    if (!existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`replication template: could not place ${dir}`);
  });
  await rm(building, { recursive: true, force: true });
  return dir;
}

async function appendConf(dataDir: string, lines: string[]): Promise<void> {
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', 'sh', '-c', 'cat >> "$0"', path.join(dataDir, 'postgresql.conf')]]
    : ['sh', ['-c', 'cat >> "$0"', path.join(dataDir, 'postgresql.conf')]];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, argv as string[], { stdio: ['pipe', 'ignore', 'pipe'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`appending to postgresql.conf failed (${code})`))));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

export class LocalNode {
  private watchdog: ChildProcess | null = null;

  constructor(
    /** Shown in errors and the drill's table: `a`, `b`. Never a hostname. */
    readonly name: string,
    readonly dataDir: string,
    readonly port: number,
  ) {}

  /** A fresh primary in `dataDir`, copied from the machine's template. */
  static async initPrimary(name: string, dataDir: string, port: number): Promise<LocalNode> {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', 'cp', '-a', await template(), dataDir]] : ['cp', ['-a', await template(), dataDir]];
    await run(command, argv);
    await appendConf(dataDir, [`port = ${port}`]);
    return new LocalNode(name, dataDir, port);
  }

  /** A streaming standby of `primary` in `dataDir`, named `name` (its application_name); `settings` apply once it is promoted too. */
  static async initStandby(name: string, dataDir: string, port: number, primary: LocalNode, settings: string[] = []): Promise<LocalNode> {
    await pgTool('pg_basebackup', [
      '-d',
      `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}`,
      '-D',
      dataDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await appendConf(dataDir, [`port = ${port}`, ...settings]);
    return new LocalNode(name, dataDir, port);
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  get running(): boolean {
    return this.watchdog !== null;
  }

  /** Starts the server and its watchdog; resolves once it accepts connections. */
  async start(): Promise<void> {
    if (this.watchdog) return;
    const bin = (tool: string) => path.join(PG_BIN, tool);
    const script = `"$0" -D "$1" -l "$1.log" -w -t 60 start >/dev/null || exit 1; echo ready; read _; "$0" -D "$1" -m immediate stop >/dev/null 2>&1`;
    const [command, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', 'sh', '-c', script, bin('pg_ctl'), this.dataDir]]
      : ['sh', ['-c', script, bin('pg_ctl'), this.dataDir]];
    const watchdog = spawn(command, argv as string[], { stdio: ['pipe', 'pipe', 'inherit'], cwd: os.tmpdir() });
    watchdog.stdin!.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      const lines = readline.createInterface({ input: watchdog.stdout! });
      lines.once('line', () => resolve());
      watchdog.once('exit', (code) => reject(new Error(`${this.name}: the server did not start (${code}); see ${this.dataDir}.log`)));
    });
    this.watchdog = watchdog;
  }

  /** Stops the server: `immediate` is a crash (no checkpoint, connections cut), `fast` a clean stop. */
  async stop(mode: 'immediate' | 'fast'): Promise<void> {
    const watchdog = this.watchdog;
    if (!watchdog) return;
    this.watchdog = null;
    await pgTool('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']).catch(() => {});
    const exited = new Promise((resolve) => watchdog.once('exit', resolve));
    watchdog.stdin!.end();
    await exited;
  }

  /** Ends recovery: this standby becomes a primary on the next timeline. */
  async promote(): Promise<void> {
    await pgTool('pg_ctl', ['-D', this.dataDir, '-w', '-t', '60', 'promote']);
  }

  async remove(): Promise<void> {
    await this.stop('immediate');
    await rm(this.dataDir, { recursive: true, force: true });
    await rm(`${this.dataDir}.log`, { force: true });
  }
}

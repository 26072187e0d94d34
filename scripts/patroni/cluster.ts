/**
 * A Patroni cluster on this machine for the Patroni tier: one etcd member, two
 * or three Patroni members (PostgreSQL 15 from Debian's binaries) and HAProxy,
 * configured from docs/patroni/patroni.yml and docs/patroni/haproxy.cfg (the
 * very files the docs show), the Leaseboard schema migrated.
 *
 * Guarantees
 * - Everything listens on 127.0.0.1, on ports picked free, with every file in
 *   one temp folder that `stop()` removes.
 * - Patroni and its PostgreSQL run as the `postgres` user when this process is
 *   root (PostgreSQL refuses root; `runuser`, as ../../db/replication does),
 *   etcd and HAProxy as this user.
 * - Nothing outlives this process: each daemon runs in a process group of its
 *   own under a watchdog shell whose stdin is a pipe from here; when the pipe
 *   closes (`stop()`, or this process ending however it ends) the shell kills
 *   its whole group with SIGKILL, and for a member first its postmaster too
 *   (Patroni starts it in a session of its own, out of the group; its
 *   backends exit when they see it gone).
 * - `urlMultiHost` lists every member (`target_session_attrs=read-write`);
 *   `urlHaproxy` is HAProxy's one address.
 * Not guaranteed: durability (fsync off) — a crash here is a killed process,
 * not a lost machine.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../db/free-port';
import { migrateDatabase } from '../../db/migrate';
import { ownedDir } from '../../db/replication/local-node';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const DOCS = path.join(import.meta.dirname, '../../docs/patroni');
const DATABASE = 'leaseboard';

/** `template` with each `{{key}}` replaced; a field left unfilled is an error, not an empty string. */
function filled(template: string, fields: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in fields)) throw new Error(`patroni: no value for {{${key}}}`);
    return String(fields[key]);
  });
}

/** A daemon in its own process group, killed with its group (and the postmaster of `dataDir`) when the watchdog's stdin closes. */
class Daemon {
  private readonly shell: ChildProcess;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    argv: string[],
    log: string,
    dataDir?: string,
  ) {
    // The postmaster is killed only if the PID in its pid file still runs from this data folder (no stale PID reused).
    const postmaster = dataDir
      ? `pm=$(head -n1 "${dataDir}/postmaster.pid" 2>/dev/null); [ -n "$pm" ] && grep -qs -- "${dataDir}" /proc/$pm/cmdline && kill -KILL "$pm"; `
      : '';
    // `kill -KILL 0` reaches the shell's whole group: the daemon and whatever it started in it.
    const script = `"$@" </dev/null >>"${log}" 2>&1 & read _; ${postmaster}kill -KILL 0`;
    this.shell = spawn('sh', ['-c', script, 'sh', ...argv], { detached: true, stdio: ['pipe', 'ignore', 'inherit'] });
    this.shell.stdin!.on('error', () => {});
    this.exited = new Promise((resolve) => this.shell.once('exit', () => resolve()));
  }

  async stop(): Promise<void> {
    this.shell.stdin!.end();
    await this.exited;
  }
}

export interface Member {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  daemon: Daemon | null;
}

export class PatroniCluster {
  private constructor(
    readonly root: string,
    readonly etcdPort: number,
    readonly haproxyPort: number,
    readonly members: Member[],
    private readonly daemons: Daemon[],
  ) {}

  static async start(size: 2 | 3 = 2): Promise<PatroniCluster> {
    const root = await ownedDir(os.tmpdir(), 'lb-patroni-');
    const [etcdPort, peerPort, haproxyPort] = [await freePort(), await freePort(), await freePort()];
    const members: Member[] = [];
    for (let i = 1; i <= size; i++)
      members.push({ name: `m${i}`, pgPort: await freePort(), apiPort: await freePort(), dataDir: path.join(root, `m${i}`), daemon: null });
    const etcd = new Daemon(
      'etcd',
      [
        'etcd',
        '--name=e',
        `--data-dir=${path.join(root, 'etcd')}`,
        `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
        `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
        `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-cluster=e=http://127.0.0.1:${peerPort}`,
      ],
      path.join(root, 'etcd.log'),
    );
    const cluster = new PatroniCluster(root, etcdPort, haproxyPort, members, [etcd]);
    try {
      await waitUntil(`etcd on ${etcdPort}`, () => httpStatus(`http://127.0.0.1:${etcdPort}/health`).then((s) => s === 200), 20_000);
      // The first member bootstraps the cluster alone; the others then copy it (no race for the initialize key).
      await cluster.startMember(members[0]!);
      await cluster.waitForPrimary(60_000);
      await admin(cluster.nodeUrl(members[0]!, 'postgres'), (c) => c.query(`CREATE DATABASE ${DATABASE}`));
      await migrateDatabase(cluster.nodeUrl(members[0]!, DATABASE));
      for (const member of members.slice(1)) await cluster.startMember(member);
      await Promise.all(members.slice(1).map((m) => waitUntil(`${m.name} streaming`, () => cluster.role(m).then((r) => r === 'replica'), 60_000)));
      await cluster.startHaproxy();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  get urlMultiHost(): string {
    const hosts = this.members.map((m) => `127.0.0.1:${m.pgPort}`).join(',');
    return `postgres://postgres@${hosts}/${DATABASE}?target_session_attrs=read-write`;
  }

  get urlHaproxy(): string {
    return `postgres://postgres@127.0.0.1:${this.haproxyPort}/${DATABASE}`;
  }

  nodeUrl(member: Member, database = DATABASE): string {
    return `postgres://postgres@127.0.0.1:${member.pgPort}/${database}`;
  }

  configFile(member: Member): string {
    return path.join(this.root, `${member.name}.yml`);
  }

  async startMember(member: Member): Promise<void> {
    const fields = { name: member.name, api_port: member.apiPort, etcd_port: this.etcdPort, pg_port: member.pgPort, data_dir: member.dataDir, fsync: 'off' };
    await writeFile(this.configFile(member), filled(readFileSync(path.join(DOCS, 'patroni.yml'), 'utf8'), fields), { mode: 0o644 });
    const argv = asRoot ? ['runuser', '-u', 'postgres', '--', 'patroni', this.configFile(member)] : ['patroni', this.configFile(member)];
    member.daemon = new Daemon(member.name, argv, path.join(this.root, `${member.name}.log`), member.dataDir);
    this.daemons.push(member.daemon);
  }

  /** A member's crash: its Patroni and its PostgreSQL killed (SIGKILL to their group). */
  async crash(member: Member): Promise<void> {
    await member.daemon?.stop();
    member.daemon = null;
  }

  private async startHaproxy(): Promise<void> {
    const servers = this.members.map((m) => `    server ${m.name} 127.0.0.1:${m.pgPort} check port ${m.apiPort}`);
    const config = `${filled(readFileSync(path.join(DOCS, 'haproxy.cfg'), 'utf8'), { port: this.haproxyPort })}${servers.join('\n')}\n`;
    const file = path.join(this.root, 'haproxy.cfg');
    await writeFile(file, config);
    this.daemons.push(new Daemon('haproxy', ['haproxy', '-db', '-f', file], path.join(this.root, 'haproxy.log')));
    await waitUntil('HAProxy reaching the primary', () => canQuery(this.urlHaproxy), 20_000);
  }

  /** What Patroni's REST API says the member is: `primary`, `replica`, or null (down or neither yet). */
  async role(member: Member): Promise<'primary' | 'replica' | null> {
    if ((await httpStatus(`http://127.0.0.1:${member.apiPort}/primary`)) === 200) return 'primary';
    if ((await httpStatus(`http://127.0.0.1:${member.apiPort}/replica`)) === 200) return 'replica';
    return null;
  }

  /** The member that holds the leader key and runs as primary, once there is one. */
  async waitForPrimary(timeoutMs = 30_000, not?: Member): Promise<Member> {
    let found: Member | null = null;
    await waitUntil(
      'a primary',
      async () => {
        for (const m of this.members) if (m !== not && (await this.role(m)) === 'primary') found = m;
        return found !== null;
      },
      timeoutMs,
    );
    return found!;
  }

  /**
   * Resolves once every other member has replayed `primary`'s WAL as it stands now, so what was committed there
   * is on each of them. A member reads as a replica once it is in recovery, before it has streamed anything: a
   * switchover within the lag Patroni allows (maximum_lag_on_failover, 1 MB) promoted one without the job's
   * table, and the old primary, rebuilt from it, lost the table too (CI, once, on a loaded machine).
   */
  async waitForReplicas(primary: Member, timeoutMs = 30_000): Promise<void> {
    const lsn = await admin(this.nodeUrl(primary), async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn);
    const replayed = (m: Member) =>
      admin(
        this.nodeUrl(m),
        async (c) => (await c.query<{ ok: boolean | null }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn])).rows[0]!.ok === true,
      ).catch(() => false);
    for (const member of this.members.filter((m) => m !== primary)) await waitUntil(`${member.name} replayed ${lsn}`, () => replayed(member), timeoutMs);
  }

  /** `patronictl switchover` now, to `candidate`. */
  async switchover(leader: Member, candidate: Member): Promise<void> {
    const argv = ['-c', this.configFile(leader), 'switchover', '--leader', leader.name, '--candidate', candidate.name, '--force'];
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', 'patronictl', ...argv]) : run('patronictl', argv));
  }

  /** The postmaster's PID of `member` (first line of postmaster.pid). */
  postmasterPid(member: Member): number {
    return Number(readFileSync(path.join(member.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  async stop(): Promise<void> {
    await Promise.all(this.daemons.splice(0).map((d) => d.stop()));
    // PATRONI_TIER_KEEP=1 keeps the logs and data to read after a failure (every process is gone).
    if (process.env.PATRONI_TIER_KEEP === '1') console.log(`patroni: kept ${this.root}`);
    else await rm(this.root, { recursive: true, force: true });
  }
}

export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'leaseboard-patroni-admin', connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function canQuery(url: string): Promise<boolean> {
  return admin(url, (c) => c.query('SELECT 1')).then(
    () => true,
    () => false,
  );
}

async function httpStatus(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return null;
  }
}

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`patroni: no ${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * A primary and a streaming standby on this machine (./local-node.ts), the
 * Leaseboard schema migrated on them, and the moves of a failover: crash the
 * primary, promote the standby, bring the old primary back as the new
 * primary's standby. For the failover tests and `npm run failover-drill`.
 *
 * Guarantees
 * - `url` lists both nodes in a fixed order (`node-1` = a, `node-2` = b,
 *   `target_session_attrs=read-write`), as a client of a real cluster would:
 *   which of them is the primary changes, the string does not.
 * - `sync`: the primary waits for its standby at every commit
 *   (`synchronous_standby_names = '*'`). A promoted node has no standby until
 *   the old primary rejoins: `strict` keeps it waiting meanwhile (Patroni's
 *   `synchronous_mode_strict`), otherwise it commits alone until then (Patroni's
 *   `synchronous_mode`: with two nodes there is nothing it could fail over to).
 *   `async`: it never waits.
 * - `stop()` stops both servers and removes every file (a pair never
 *   outlives its process either way: see LocalNode).
 * Not guaranteed: that the standby has received the newest commit at a
 * crash in `async` mode — that loss is what the tests provoke on purpose
 * (`detachStandby` first, then commit, then crash).
 */
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port';
import { migrateDatabase } from '../migrate';
import { LocalNode, ownedDir } from './local-node';

export type ReplicationMode = 'async' | 'sync';

const DATABASE = 'leaseboard';

/** In `sync`, a standby waits for a standby of its own once promoted (set before, so no commit after promotion is unguarded). */
const standbySettings = (mode: ReplicationMode) => (mode === 'sync' ? ["synchronous_standby_names = '*'"] : []);

export class LocalPair {
  private constructor(
    readonly mode: ReplicationMode,
    readonly strict: boolean,
    readonly root: string,
    /** In URL order: `node-1`, `node-2`. */
    readonly nodes: [LocalNode, LocalNode],
    public primary: LocalNode,
    public standby: LocalNode,
  ) {}

  static async start(mode: ReplicationMode, options: { strict?: boolean } = {}): Promise<LocalPair> {
    const root = await ownedDir(os.tmpdir(), 'lb-pair-');
    const a = await LocalNode.initPrimary('a', path.join(root, 'a'), await freePort());
    await a.start();
    await admin(a, (c) => c.query(`CREATE DATABASE ${DATABASE}`));
    await migrateDatabase(a.url(DATABASE));
    // Each node's port is picked just before it is written into its configuration (db/free-port.ts).
    const b = await LocalNode.initStandby('b', path.join(root, 'b'), await freePort(), a, standbySettings(mode));
    await b.start();
    const pair = new LocalPair(mode, options.strict ?? true, root, [a, b], a, b);
    if (mode === 'sync') await admin(a, async (c) => void (await c.query(`ALTER SYSTEM SET synchronous_standby_names = '*'`)));
    await admin(a, (c) => c.query('SELECT pg_reload_conf()'));
    await pair.caughtUp();
    return pair;
  }

  /** Both nodes, the primary wherever it is; writers find it (db/url.ts). */
  get url(): string {
    const [a, b] = this.nodes;
    return `postgres://postgres@127.0.0.1:${a.port},127.0.0.1:${b.port}/${DATABASE}?target_session_attrs=read-write`;
  }

  /** The opaque id a pool gives `node` (its position in `url`). */
  idOf(node: LocalNode): string {
    return `node-${this.nodes.indexOf(node) + 1}`;
  }

  /** Waits until the standby streams and has replayed everything the primary wrote so far. */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const target = await admin(this.primary, async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn);
    for (;;) {
      const { streaming, replayed } = await admin(this.primary, async (c) => {
        const { rows } = await c.query<{ streaming: boolean; replayed: boolean }>(
          `SELECT count(*) FILTER (WHERE state = 'streaming' AND ($2 = 'async' OR sync_state = 'sync')) > 0 AS streaming,
                  coalesce(bool_or(replay_lsn >= $1::pg_lsn), false) AS replayed FROM pg_stat_replication`,
          [target, this.mode],
        );
        return rows[0]!;
      });
      if (streaming && replayed) return;
      if (Date.now() > deadline) throw new Error(`standby ${this.standby.name} did not catch up within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Cuts replication (stops the standby cleanly): commits now reach the primary alone (and wait forever in `sync`). */
  async detachStandby(): Promise<void> {
    await this.standby.stop('fast');
  }

  /** Crashes the primary (`immediate`), starts the standby if detached, promotes it; returns ms from crash to a writable node. */
  async failover(): Promise<{ promotedMs: number }> {
    const crashed = performance.now();
    await this.primary.stop('immediate');
    if (!this.standby.running) await this.standby.start();
    await this.standby.promote();
    const promotedMs = performance.now() - crashed;
    [this.primary, this.standby] = [this.standby, this.primary];
    if (this.mode === 'sync' && !this.strict) await this.setSynchronous(false);
    return { promotedMs };
  }

  /** The old primary becomes the new primary's standby again (a fresh base backup: its own newest WAL is discarded). */
  async rejoin(): Promise<void> {
    const old = this.standby;
    await old.remove();
    const again = await LocalNode.initStandby(old.name, old.dataDir, old.port, this.primary, standbySettings(this.mode));
    await again.start();
    const index = this.nodes.indexOf(old) as 0 | 1;
    this.nodes[index] = again;
    this.standby = again;
    if (this.mode === 'sync' && !this.strict) await this.setSynchronous(true);
    await this.caughtUp();
  }

  /** Whether the primary waits for a standby at commit (`sync` mode's setting, or none while it has no standby). */
  async setSynchronous(on: boolean): Promise<void> {
    await admin(this.primary, async (c) => {
      await c.query(on ? `ALTER SYSTEM SET synchronous_standby_names = '*'` : `ALTER SYSTEM SET synchronous_standby_names = ''`);
      await c.query('SELECT pg_reload_conf()');
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop('immediate')));
    await rm(this.root, { recursive: true, force: true });
  }
}

/** A short connection to `node` (its postgres database) as the superuser. */
export async function admin<T>(node: LocalNode, work: (client: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const client = new pg.Client({ connectionString: node.url(database), application_name: 'leaseboard-pair-admin' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

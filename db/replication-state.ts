/**
 * What protects the authority, as the node that answers says: primary or
 * standby, its failover generation, how far behind a standby is, and which
 * standbys a primary waits for. For the status service's observation and
 * metrics (durability on the dashboard); one statement, read-only.
 *
 * Guarantees: answers on a primary and on a standby alike (nothing here
 * needs a writable node); `node` is the pool's opaque id (`node-1` …), never
 * a host. Lag is measured on the answering node's clock.
 * Reads through `leaseboard_replication_state()` (migration
 * replication_state), a definer function answering aggregates only, so the
 * status service's reader role sees the standbys without pg_monitor.
 * Not guaranteed: a standby's lag while the primary writes nothing (the last
 * replayed commit then ages although nothing is missing — `caughtUp` and
 * `receiving` say whether everything received is replayed and more is
 * coming); a definer (the migrator) without `pg_read_all_stats` sees the
 * standbys' rows with their state hidden (`standbys.hidden`), which the
 * judgement (lib/status/durability.ts) reads as unknown.
 */
import pg from 'pg';
import { NodeClient } from './node-client';

export interface ReplicationState {
  /** The pool's id for the node that answered, or null when the connection is not a pool's. */
  node: string | null;
  role: 'primary' | 'standby';
  /** Primary: its failover generation (the high part of the epochs it grants). Standby: null. */
  generation: number | null;
  /** Standby: when the last transaction replayed here committed on the primary (ISO; null if none replayed yet). */
  lastReplayAt: string | null;
  /** Standby: ms since the last replayed commit was committed on the primary (null if none replayed yet). */
  replayLagMs: number | null;
  /** Standby: everything received has been replayed. */
  caughtUp: boolean | null;
  /** Standby: its WAL receiver is streaming (null: on a primary, or its state hidden from the definer). */
  receiving: boolean | null;
  /** Primary: streaming standbys it waits for at commit, those it does not, and rows whose state the definer may not see. */
  standbys: { synchronous: number; asynchronous: number; hidden: number } | null;
  /** Primary: the longest replay lag among its standbys, ms (null when none measured). */
  standbyReplayLagMs: number | null;
  /** Primary: the largest WAL distance to a standby's replay position, bytes (null: no streaming standby). */
  standbyLagBytes: number | null;
  /** `synchronous_standby_names` is set (its value is never read out: it may name hosts). */
  synchronousStandbyNamesSet: boolean;
  /** The reading session's `synchronous_commit`. */
  synchronousCommit: string;
  /** The answering node's clock_timestamp() (ISO). */
  now: string;
}

/** One row from the definer function (migration replication_state), times as epoch ms. */
const REPLICATION_STATE_SQL = `
SELECT in_recovery, generation::float8 AS generation,
  (extract(epoch FROM last_replay_at) * 1000)::float8 AS last_replay_ms, caught_up, receiving,
  sync_standbys, async_standbys, hidden_standbys, standby_replay_lag_ms, standby_lag_bytes,
  synchronous_standby_names_set, synchronous_commit, (extract(epoch FROM now) * 1000)::float8 AS now_ms
FROM leaseboard_replication_state()`;

interface Row {
  in_recovery: boolean;
  generation: number | null;
  last_replay_ms: number | null;
  caught_up: boolean | null;
  receiving: boolean | null;
  sync_standbys: number;
  async_standbys: number;
  hidden_standbys: number;
  standby_replay_lag_ms: number | null;
  standby_lag_bytes: number | null;
  synchronous_standby_names_set: boolean;
  synchronous_commit: string;
  now_ms: number;
}

/** Anything that can run the statement: a pool (one of its connections is used, to name its node), a client, or a `query`-able. */
export type ReplicationReadable = pg.Pool | pg.ClientBase | { query: (config: { text: string }) => Promise<{ rows: unknown[] }> };

/** Reads the state of the node `db` is connected to (a pool: one of its connections, and that node's id). */
export async function readReplicationState(db: ReplicationReadable): Promise<ReplicationState> {
  const client = db instanceof pg.Pool ? await db.connect() : db;
  try {
    const row = (await client.query({ text: REPLICATION_STATE_SQL })).rows[0] as Row;
    const primary = !row.in_recovery;
    const iso = (ms: number) => new Date(Math.trunc(ms)).toISOString();
    return {
      node: client instanceof NodeClient ? (client.node?.id ?? null) : null,
      role: primary ? 'primary' : 'standby',
      generation: row.generation,
      lastReplayAt: row.last_replay_ms === null ? null : iso(row.last_replay_ms),
      replayLagMs: row.last_replay_ms === null ? null : Math.max(0, Math.round(row.now_ms - row.last_replay_ms)),
      caughtUp: row.caught_up,
      receiving: row.receiving,
      standbys: primary ? { synchronous: row.sync_standbys, asynchronous: row.async_standbys, hidden: row.hidden_standbys } : null,
      standbyReplayLagMs: row.standby_replay_lag_ms === null ? null : Math.round(row.standby_replay_lag_ms),
      standbyLagBytes: row.standby_lag_bytes,
      synchronousStandbyNamesSet: row.synchronous_standby_names_set,
      synchronousCommit: row.synchronous_commit,
      now: iso(row.now_ms),
    };
  } finally {
    if (client !== db) (client as pg.PoolClient).release();
  }
}

/**
 * What protects the authority, as the node that answers says: primary or
 * standby, its failover generation, how far behind a standby is, and which
 * standbys a primary waits for. For the status service's observation and
 * metrics (durability on the dashboard); one statement, read-only.
 *
 * Guarantees: answers on a primary and on a standby alike (nothing here
 * needs a writable node); `node` is the pool's opaque id (`node-1` …), never
 * a host. Lag is measured on the answering node's clock.
 * Not guaranteed: a standby's lag while the primary writes nothing (the last
 * replayed commit then ages although nothing is missing — `caughtUp` says
 * whether everything received is replayed); standby details on a primary
 * need `pg_read_all_stats` (member of `pg_monitor`) for roles that do not own
 * the replication connections, else they read as unknown (null).
 */
import type pg from 'pg';
import { NodeClient } from './node-client';

export interface ReplicationState {
  /** The pool's id for the node that answered, or null when the connection is not a pool's. */
  node: string | null;
  role: 'primary' | 'standby';
  /** Primary: its failover generation (the high part of the epochs it grants). Standby: null. */
  generation: number | null;
  /** Standby: ms since the last replayed commit was committed on the primary (null if none replayed yet). */
  replayLagMs: number | null;
  /** Standby: everything received has been replayed. */
  caughtUp: boolean | null;
  /** Primary: streaming standbys it waits for at commit, and those it does not. */
  standbys: { synchronous: number; asynchronous: number } | null;
  /** Primary: the longest replay lag among its standbys, ms (null when none, or not readable). */
  standbyReplayLagMs: number | null;
  synchronousCommit: string;
}

export const REPLICATION_STATE_SQL = `
SELECT pg_is_in_recovery() AS in_recovery,
  CASE WHEN NOT pg_is_in_recovery() THEN leaseboard_generation() END AS generation,
  CASE WHEN pg_is_in_recovery() THEN (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 END AS replay_lag_ms,
  CASE WHEN pg_is_in_recovery() THEN coalesce(pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn(), false) END AS caught_up,
  (SELECT count(*) FILTER (WHERE state = 'streaming' AND sync_state IN ('sync', 'quorum'))::int FROM pg_stat_replication) AS sync_standbys,
  (SELECT count(*) FILTER (WHERE state = 'streaming' AND sync_state NOT IN ('sync', 'quorum'))::int FROM pg_stat_replication) AS async_standbys,
  (SELECT (max(extract(epoch FROM replay_lag)) * 1000)::float8 FROM pg_stat_replication) AS standby_replay_lag_ms,
  current_setting('synchronous_commit') AS synchronous_commit`;

interface Row {
  in_recovery: boolean;
  generation: string | null;
  replay_lag_ms: number | null;
  caught_up: boolean | null;
  sync_standbys: number;
  async_standbys: number;
  standby_replay_lag_ms: number | null;
  synchronous_commit: string;
}

/** Reads the state of the node `db` is connected to (a pool: one of its connections, and that node's id). */
export async function readReplicationState(db: pg.Pool | pg.Client): Promise<ReplicationState> {
  const client = 'totalCount' in db ? await db.connect() : db;
  try {
    const row = (await client.query<Row>(REPLICATION_STATE_SQL)).rows[0]!;
    const primary = !row.in_recovery;
    return {
      node: client instanceof NodeClient ? (client.node?.id ?? null) : null,
      role: primary ? 'primary' : 'standby',
      generation: row.generation === null ? null : Number(row.generation),
      replayLagMs: row.replay_lag_ms === null ? null : Math.max(0, Math.round(row.replay_lag_ms)),
      caughtUp: row.caught_up,
      standbys: primary ? { synchronous: row.sync_standbys, asynchronous: row.async_standbys } : null,
      standbyReplayLagMs: row.standby_replay_lag_ms === null ? null : Math.round(row.standby_replay_lag_ms),
      synchronousCommit: row.synchronous_commit,
    };
  } finally {
    if (client !== db) (client as pg.PoolClient).release();
  }
}

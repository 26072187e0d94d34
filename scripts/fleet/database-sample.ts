/**
 * What the fleet reads of its database each sample, as cumulative counters
 * (the fleet turns two of them into rates):
 * - CPU: user + system time of the server processes serving THIS database
 *   (pg_stat_activity's backends, from /proc — pg_stat_statements is not
 *   installed); the server's shared background work (WAL writer,
 *   checkpointer, autovacuum) is not in it. Null where /proc does not show
 *   the server's processes (another host or container).
 * - transactions: pg_stat_database's xact_commit + xact_rollback (this
 *   database; every statement the fleet sends is its own transaction, so
 *   this is its statements, the sampler's own included);
 * - rows written: pg_stat_user_tables' n_tup_ins + n_tup_upd + n_tup_del
 *   (this database; PostgreSQL flushes these within about a second);
 * - WAL: pg_current_wal_lsn() — the whole server's, other databases on it included;
 * - table bytes: every application table, partitions summed into their parents;
 * - the alert evaluator's rounds and the pruner's rounds completed since the
 *   last sample, from their occurrences (claim → completion; due → completion).
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** Clock ticks per second of /proc/PID/stat's times (USER_HZ; 100 on Linux). */
const TICKS_PER_S = 100;

export interface DatabaseCounters {
  /** Database time of the reading (epoch ms). */
  atMs: number;
  /** CPU seconds so far of each backend serving this database (null: /proc does not show them). */
  cpuByPid: Map<number, number> | null;
  transactions: number;
  rowsWritten: number;
  walBytes: number;
  tableBytes: number;
  /** The slowest alert round (claim → completion) completed since the last reading, and how many. */
  alertRoundMs: number | null;
  alertRounds: number;
  /** The latest pruner round completed since the last reading: completion − due time. */
  prunerLagMs: number | null;
  prunerRounds: number;
}

function processCpuS(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return null;
  }
}

/** CPU seconds each of these processes has used so far (those gone are left out). */
export function processesCpu(pids: readonly number[]): Map<number, number> {
  const cpuByPid = new Map<number, number>();
  for (const pid of pids) {
    const cpu = processCpuS(pid);
    if (cpu !== null) cpuByPid.set(pid, cpu);
  }
  return cpuByPid;
}

/** `sinceMs`: database time of the previous reading (rounds completed after it count). */
export async function readCounters(db: Pick<pg.Pool, 'query'>, sinceMs: number): Promise<DatabaseCounters> {
  const { rows } = await db.query<{
    at_ms: number;
    pids: number[];
    transactions: number;
    rows_written: number;
    wal: number;
    table_bytes: number;
    alert_ms: number | null;
    alert_rounds: number;
    pruner_ms: number | null;
    pruner_rounds: number;
  }>(
    `SELECT extract(epoch FROM clock_timestamp()) * 1000 AS at_ms,
            (SELECT array_agg(pid) FROM pg_stat_activity WHERE datname = current_database()) AS pids,
            (SELECT (xact_commit + xact_rollback)::float8 FROM pg_stat_database WHERE datname = current_database()) AS transactions,
            (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::float8 FROM pg_stat_user_tables) AS rows_written,
            pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS wal,
            (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 FROM pg_class c
              WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'm')) AS table_bytes,
            (SELECT max(extract(epoch FROM completed_at - claimed_at) * 1000)::float8 FROM occurrences
              WHERE lease = 'leaseboard-alerts' AND completed_at > to_timestamp($1 / 1000.0)) AS alert_ms,
            (SELECT count(*)::int FROM occurrences WHERE lease = 'leaseboard-alerts' AND completed_at > to_timestamp($1 / 1000.0)) AS alert_rounds,
            (SELECT extract(epoch FROM completed_at - scheduled_at)::float8 * 1000 FROM occurrences
              WHERE lease = 'leaseboard-retention' AND completed_at > to_timestamp($1 / 1000.0) ORDER BY completed_at DESC LIMIT 1) AS pruner_ms,
            (SELECT count(*)::int FROM occurrences WHERE lease = 'leaseboard-retention' AND completed_at > to_timestamp($1 / 1000.0)) AS pruner_rounds`,
    [sinceMs],
  );
  const row = rows[0]!;
  const cpuByPid = processesCpu(row.pids ?? []);
  return {
    atMs: Number(row.at_ms),
    cpuByPid: cpuByPid.size === 0 ? null : cpuByPid,
    transactions: row.transactions,
    rowsWritten: row.rows_written,
    walBytes: row.wal,
    tableBytes: row.table_bytes,
    alertRoundMs: row.alert_ms,
    alertRounds: row.alert_rounds,
    prunerLagMs: row.pruner_ms,
    prunerRounds: row.pruner_rounds,
  };
}

/** CPU seconds the backends spent between two readings (a backend new since the first counts whole). */
export function cpuBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!after) return null;
  let seconds = 0;
  for (const [pid, cpu] of after) seconds += Math.max(0, cpu - (before?.get(pid) ?? 0));
  return seconds;
}

/** Busy and total jiffies of the whole machine (/proc/stat), for the host's CPU beside the database's. */
export function hostCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    const total = values.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

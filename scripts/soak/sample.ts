/**
 * One soak sample: each table's rows and bytes, each process's resident set,
 * and the status list's latency.
 *
 * Guarantees: bytes are `pg_total_relation_size` (heap, indexes, TOAST, free
 * space and visibility maps) summed over `pg_partition_tree` for a
 * partitioned table (its parent alone is 0 bytes; the tree of an ordinary
 * table is empty, so that one is measured itself); rows are exact (`count(*)`), read in one
 * statement, so every table is counted at one snapshot. RSS is the kernel's
 * VmRSS of the process itself (`node`, not an `npm` wrapper).
 * Not guaranteed: bytes of rows deleted but not yet vacuumed are still
 * counted — that is the point (the disk holds them).
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import type { StatusService } from '../../lib/server/service';

export interface TableSample {
  rows: number;
  bytes: number;
}

export interface SoakSample {
  /** Milliseconds since the fleet was up. */
  atMs: number;
  tables: Record<string, TableSample>;
  /** VmRSS in bytes per process id (null: it was not running). */
  rss: Record<string, number | null>;
  listMs: number;
  listOk: boolean;
}

/**
 * The tables the run writes (ordinary and partitioned parents; partitions are summed into them): Leaseboard's,
 * and the demo's own (schema leaseboard_demo, schema-qualified), whose planner is the soak's workload.
 */
export async function listTables(db: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END AS name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname IN ('public', 'leaseboard_demo') AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

const quote = (name: string) =>
  name
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');

export async function sampleTables(db: Pick<pg.Pool, 'query'>, tables: string[]): Promise<Record<string, TableSample>> {
  const counts = tables.map((name) => `SELECT '${name.replaceAll("'", "''")}'::text AS name, count(*)::float8 AS n FROM ${quote(name)}`).join(' UNION ALL ');
  const { rows } = await db.query<{ name: string; rows: number; bytes: number }>(
    `WITH counts AS (${counts})
     SELECT c.name, c.n AS rows,
            CASE WHEN r.relkind = 'p'
                 THEN (SELECT coalesce(sum(pg_total_relation_size(t.relid)), 0) FROM pg_partition_tree(r.oid) t)
                 ELSE pg_total_relation_size(r.oid) END::float8 AS bytes
     FROM counts c JOIN pg_class r ON r.oid = c.name::regclass`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, { rows: row.rows, bytes: row.bytes }]));
}

/** VmRSS of `pid` in bytes; null when the process is gone (or /proc is not there). */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** One list read of the status service, as a dashboard poll makes it (first page, no filter), timed. */
export async function timeList(service: StatusService): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const list = await service.list({});
  return { ms: performance.now() - started, ok: list.observation.ok };
}

/**
 * Where the database's statements wait, sampled: every second, every
 * non-idle backend of the fleet's database (pg_stat_activity), classified by
 * statement kind (renew, report, list read, evaluator, pruner, …: by the SQL
 * function it calls, else by its application_name and text), with what it
 * waits on (wait_event_type:wait_event, or `CPU` when it waits on nothing),
 * how long it has been running, and — for a lock wait — the kinds of the
 * backends blocking it (pg_blocking_pids). At the end, a table per kind: how
 * often it was seen, its share by wait, its longest observed run, and what
 * blocked it.
 *
 * Guarantees: bounded — counters per kind and wait, and at most
 * RUNNING_KEPT running times per kind (a reservoir). Sampling sees a
 * statement only if it runs at a sampling instant: a kind's counts are time
 * shares, its running times a lower bound on its latency (the client-side
 * figures, per kind, are the fleet's renewal, report and list columns).
 */
import type pg from 'pg';
import { quantile } from './latency';

const RUNNING_KEPT = 5_000;

export interface ActivityRow {
  application_name: string;
  query: string;
  wait: string | null;
  running_ms: number;
  blocked_by: string[] | null;
}

/** A statement's kind, from the protocol function it calls, else who sent it and what it says. */
export function statementKind(application: string, query: string): string {
  const fn = /\bleaseboard_(renew_many|renew|report_many|report|acquire|register|release)\b/.exec(query)?.[1];
  if (fn) return fn.startsWith('renew') ? 'renew' : fn.startsWith('report') ? 'report' : fn;
  if (application === 'leaseboard-fleet-list') return 'list read';
  if (/\boccurrences\b/i.test(query) && /\bINSERT\b|\bUPDATE\b/i.test(query)) return 'occurrence write';
  if (/\balert/i.test(query)) return 'evaluator';
  if (/\bDELETE\b|\bDROP\b|\bDETACH\b|retention|prune/i.test(query)) return 'pruner';
  if (/\blease_intents\b|\bintent/i.test(query)) return 'intent read';
  if (application === 'leaseboard-fleet-sampler') return 'fleet sampler';
  return `other (${application || 'no name'})`;
}

interface KindTally {
  seen: number;
  byWait: Map<string, number>;
  blockedBy: Map<string, number>;
  running: number[];
  seenRunning: number;
}

export class WaitSampler {
  private readonly kinds = new Map<string, KindTally>();
  samples = 0;

  /** One sample's rows in (as the query below returns them). */
  add(rows: readonly ActivityRow[], kindOfPid: ReadonlyMap<string, string> = new Map()): void {
    this.samples += 1;
    for (const row of rows) {
      const kind = statementKind(row.application_name, row.query);
      let tally = this.kinds.get(kind);
      if (!tally) this.kinds.set(kind, (tally = { seen: 0, byWait: new Map(), blockedBy: new Map(), running: [], seenRunning: 0 }));
      tally.seen += 1;
      const wait = row.wait ?? 'CPU';
      tally.byWait.set(wait, (tally.byWait.get(wait) ?? 0) + 1);
      for (const pid of row.blocked_by ?? []) {
        const by = kindOfPid.get(pid) ?? 'an idle backend (in a transaction)';
        tally.blockedBy.set(by, (tally.blockedBy.get(by) ?? 0) + 1);
      }
      tally.seenRunning += 1;
      if (tally.running.length < RUNNING_KEPT) tally.running.push(row.running_ms);
      else {
        const slot = Math.floor(Math.random() * tally.seenRunning);
        if (slot < RUNNING_KEPT) tally.running[slot] = row.running_ms;
      }
    }
  }

  /** The table: a line per kind, the most seen first. */
  table(): string[] {
    const lines = [`where statements wait (pg_stat_activity, ${this.samples} samples at 1 s; seen = backends active at a sample):`];
    lines.push(`${'kind'.padEnd(24)} ${'seen'.padStart(6)} ${'per s'.padStart(6)} ${'running p50/p99/max ms'.padStart(24)}  waits (share)  blocked by`);
    const sorted = [...this.kinds].sort(([, a], [, b]) => b.seen - a.seen);
    for (const [kind, t] of sorted) {
      const running = [...t.running].sort((a, b) => a - b);
      const waits = [...t.byWait]
        .sort(([, a], [, b]) => b - a)
        .slice(0, 4)
        .map(([wait, n]) => `${wait} ${Math.round((100 * n) / t.seen)}%`)
        .join(', ');
      const blocked = [...t.blockedBy]
        .sort(([, a], [, b]) => b - a)
        .slice(0, 3)
        .map(([by, n]) => `${by} ×${n}`)
        .join(', ');
      const times = `${Math.round(quantile(running, 0.5))}/${Math.round(quantile(running, 0.99))}/${Math.round(running.at(-1) ?? 0)}`;
      lines.push(
        `${kind.padEnd(24)} ${String(t.seen).padStart(6)} ${(t.seen / Math.max(1, this.samples)).toFixed(2).padStart(6)} ${times.padStart(24)}  ${waits}  ${blocked || '—'}`,
      );
    }
    return lines;
  }
}

/** One sample of the fleet's database: its active backends (this one aside), and each one's kind by pid for the blockers. */
export async function sampleActivity(db: Pick<pg.Pool, 'query'>): Promise<{ rows: ActivityRow[]; kindOfPid: Map<string, string> }> {
  const { rows } = await db.query<ActivityRow & { pid: string }>(
    `SELECT pid::text, coalesce(application_name, '') AS application_name, left(coalesce(query, ''), 400) AS query,
            CASE WHEN wait_event IS NULL THEN NULL ELSE wait_event_type || ':' || wait_event END AS wait,
            extract(epoch FROM clock_timestamp() - query_start)::float8 * 1000 AS running_ms,
            CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid)::text[] END AS blocked_by
     FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND backend_type = 'client backend'`,
  );
  const kindOfPid = new Map(rows.map((row) => [row.pid, statementKind(row.application_name, row.query)]));
  return { rows, kindOfPid };
}

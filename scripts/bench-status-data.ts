/**
 * Bench data for `npm run bench:status` (scripts/bench-status.ts): N
 * schedulers with a mix of states and R reports each, generated with
 * generate_series straight into the real tables of a DEDICATED database.
 * Bulk SQL is used instead of the writers because 10,000,000 reports through
 * appendReport would take hours; the summaries are written consistently with
 * the generated reports (same formulas), as the writer would have left them.
 */
import type pg from 'pg';
import { createPool } from '../db/pool';

export interface BenchShape {
  schedulers: number;
  reportsPerScheduler: number;
}

/** Digits in a scheduler's name: `sched-00042` up to 99,999 schedulers, more beyond (names stay unique and sorted). */
export const nameWidth = (schedulers: number) => Math.max(5, String(schedulers).length);

/** The SQL name of scheduler `g` (an integer column or parameter), e.g. `sched-00042`. */
const nameOf = (g: string, width: number) => `'sched-' || lpad(${g}::text, ${width}, '0')`;

/** The teams the seeded schedulers belong to (`team` label), one in eight each. */
const BENCH_TEAMS = ['payments', 'search', 'ledger', 'identity', 'billing', 'docs', 'growth', 'infra'] as const;

/** Statements, in order, with a label each. `$1` = schedulers, `$2` = reports per scheduler. */
export function seedStatements(width = 5): { label: string; sql: string }[] {
  const name = nameOf('g', width);
  return [
    {
      // Labels as teams use them: 8 teams (g % 8), 4 services each, 1 in 10 in dev.
      label: 'schedulers (labelled team, service, env)',
      sql: `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, labels)
            SELECT ${name}, 3600000, 5000, 300000, 300000, clock_timestamp() - interval '1 day',
                   jsonb_build_object('team', (ARRAY[${BENCH_TEAMS.map((t) => `'${t}'`).join(', ')}])[g % ${BENCH_TEAMS.length} + 1],
                                      'service', 'svc-' || ((g / ${BENCH_TEAMS.length}) % 4), 'env', CASE WHEN g % 10 = 0 THEN 'dev' ELSE 'prod' END)
            FROM generate_series(1, $1::int) g`,
    },
    {
      // g % 20: 1 expired, 2 released, 3 never held; the rest held (epoch 1 + g % 5)
      label: 'leases + lease_events',
      sql: `WITH l AS (
              INSERT INTO leases (name, holder, holder_label, epoch, acquired_at, renewed_at, expires_at, ttl_ms, released_at)
              SELECT ${name}, 'inst_' || substr(md5(g::text), 1, 8), 'bench', 1 + g % 5, clock_timestamp() - interval '3 hours',
                     clock_timestamp() - (g % 7) * interval '1 second',
                     CASE WHEN g % 20 = 1 THEN clock_timestamp() - interval '10 seconds' ELSE clock_timestamp() + interval '1 hour' END,
                     15000, CASE WHEN g % 20 = 2 THEN clock_timestamp() - interval '1 minute' END
              FROM generate_series(1, $1::int) g WHERE g % 20 <> 3
              RETURNING name, holder, epoch, acquired_at)
            INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at)
            SELECT name, 'acquired', epoch, holder, 'bench', acquired_at FROM l`,
    },
    {
      label: 'scheduler_intents (1% disabled)',
      // With its audit rows, in the same statement: the database refuses an intent change without one.
      sql: `WITH i AS (INSERT INTO scheduler_intents (lease, disabled, by, reason, at)
              SELECT ${name}, true, 'bench', 'maintenance', clock_timestamp() FROM generate_series(1, $1::int) g WHERE g % 100 = 7
              RETURNING lease, disabled, by, reason, at)
            INSERT INTO intent_audit (lease, disabled, by, identified_by, reason, at) SELECT lease, disabled, by, 'cli', reason, at FROM i`,
    },
  ];
}

/**
 * Reports of schedulers [lo, hi]: R per lease in its current epoch, one every
 * 5 s ending now; the cursor moves every 10 reports, except for g % 10 = 4
 * (frozen for the last 100 reports: a stall).
 */
export const reportsSql = (width: number) => `
INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at)
SELECT ${nameOf('g', width)}, 1 + g % 5, s, ${nameOf('g', width)} || '@2026-11-30T16:00:00Z',
       CASE WHEN g % 10 = 4 THEN LEAST(s, $3::int - 100) / 10 ELSE s / 10 END,
       s = 1 OR (s % 10 = 0 AND NOT (g % 10 = 4 AND s > $3::int - 100)),
       c.now - ($3::int - s) * interval '5 seconds'
FROM (SELECT clock_timestamp() AS now) c, generate_series($1::int, $2::int) g, generate_series(1, $3::int) s
WHERE g % 20 <> 3`;

export const summariesSql = (width: number) => `
INSERT INTO progress_summaries (lease, epoch, first_report_at, last_report_at, last_seq, last_advance_at, in_flight, cursor, report_every_ms)
SELECT ${nameOf('g', width)}, 1 + g % 5, c.now - ($2::int - 1) * interval '5 seconds', c.now, $2::int,
       c.now - CASE WHEN g % 10 = 4 THEN 100 ELSE $2::int % 10 END * interval '5 seconds',
       ${nameOf('g', width)} || '@2026-11-30T16:00:00Z',
       CASE WHEN g % 10 = 4 THEN ($2::int - 100) / 10 ELSE $2::int / 10 END, 5000
FROM (SELECT clock_timestamp() AS now) c, generate_series(1, $1::int) g WHERE g % 20 <> 3`;

export async function seed(db: pg.Pool, shape: BenchShape, log: (line: string) => void): Promise<void> {
  const t0 = performance.now();
  const width = nameWidth(shape.schedulers);
  for (const s of seedStatements(width)) {
    await db.query(s.sql, [shape.schedulers]);
    log(`  ${s.label}: done (${Math.round(performance.now() - t0)} ms)`);
  }
  log('  progress_reports: partitions SET UNLOGGED and index dropped during the bulk load (no WAL; index rebuilt after) — a bench-only speed trick');
  const { rows: partitions } = await db.query<{ name: string }>(`SELECT relid::text AS name FROM pg_partition_tree('progress_reports') WHERE isleaf`);
  for (const { name } of partitions) await db.query(`ALTER TABLE ${name} SET UNLOGGED`);
  await db.query('DROP INDEX IF EXISTS progress_reports_lease_epoch_at');
  const chunk = Math.max(1, Math.ceil(shape.schedulers / 10));
  for (let lo = 1; lo <= shape.schedulers; lo += chunk) {
    const hi = Math.min(shape.schedulers, lo + chunk - 1);
    await db.query(reportsSql(width), [lo, hi, shape.reportsPerScheduler]);
    log(`  progress_reports: schedulers ${lo}–${hi} (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  await db.query('CREATE INDEX progress_reports_lease_epoch_at ON progress_reports USING btree (lease, epoch, reported_at)');
  log(`  progress_reports: index rebuilt (${Math.round((performance.now() - t0) / 1000)} s)`);
  await db.query(summariesSql(width), [shape.schedulers, shape.reportsPerScheduler]);
  await db.query('ANALYZE');
  log(`  summaries + ANALYZE: done (${Math.round((performance.now() - t0) / 1000)} s)`);
}

/**
 * A writer renewing every lease every 5 s and updating every summary every 2 s
 * (what N active schedulers do), in batches every 100 ms, on its own connection.
 * Renewals go through the protocol function (leaseboard_renew_many: live leases
 * only, stamped as a touch). A report is written as leaseboard_report writes one
 * that says nothing new (migration rejudge_only_changes: last_report_at and
 * last_seq move, touch_xid stamped, change_xid kept), without the function's
 * progress_reports insert, which this machine could not sustain at 100,000.
 */
export function startActivity(url: string, names: string[]): { stop: () => Promise<{ renewals: number; reports: number; seconds: number }> } {
  const pool = createPool(url, { applicationName: 'leaseboard-bench-writer', statementTimeoutMs: 60_000, max: 2 });
  let stopped = false;
  let renewals = 0;
  let reports = 0;
  const started = performance.now();
  const tick = 100;
  const slice = (every: number, round: number) => {
    const per = Math.max(1, Math.round((names.length * tick) / every));
    const from = (round * per) % names.length;
    return names.slice(from, from + per);
  };
  const loop = (async () => {
    const held = new Map(
      (await pool.query<{ name: string; holder: string; epoch: string }>('SELECT name, holder, epoch FROM leases WHERE name = ANY($1)', [names])).rows.map(
        (r) => [r.name, r],
      ),
    );
    for (let round = 0; !stopped; round++) {
      const t = performance.now();
      const renew = slice(5_000, round).flatMap((name) => held.get(name) ?? []);
      const report = slice(2_000, round);
      await Promise.all([
        pool.query('SELECT count(*) FROM leaseboard_renew_many($1, $2, $3)', [renew.map((l) => l.name), renew.map((l) => l.holder), renew.map((l) => l.epoch)]),
        pool.query(
          `UPDATE progress_summaries SET last_report_at = clock_timestamp(), last_seq = last_seq + 1, touch_xid = pg_current_xact_id() WHERE lease = ANY($1)`,
          [report],
        ),
      ]);
      renewals += renew.length;
      reports += report.length;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, tick - (performance.now() - t))));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      await pool.end();
      return { renewals, reports, seconds: (performance.now() - started) / 1000 };
    },
  };
}

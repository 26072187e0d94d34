/**
 * What the size model seeds: per table, how many rows one scheduler adds per
 * day at the default cadences (or holds, for fixed-size tables), how long they
 * are kept (DEFAULT_RETENTION), and a generate_series statement that writes
 * `$1` schedulers × `$2` rows each with realistic widths (names, keys, tokens).
 * Rows are written interleaved in time order (every scheduler's row for one
 * instant, then the next), as the live system writes them, so indexes split
 * pages as they do in production rather than filling them sorted.
 */
import { DEFAULT_RETENTION, type RetentionKind } from '../../lib/retention/policy';
import { DEFAULT_LEASE_TIMING } from '../../lib/lease';
import { RETENTION_PLANNER_EVERY_MS } from '../../lib/jobs/demo/retention-planner';
import { DEFAULT_REPORT_EVERY_MS } from '../../lib/status/thresholds';

const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

/** Names as the product writes them: `scheduler-00042`, its occurrence keys, an instance token. */
const NAME = `'scheduler-' || lpad(s::text, 5, '0')`;
const KEY = `${NAME} || '@' || to_char(now() - t * interval '5 min', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const TOKEN = `'inst_' || substr(md5(s::text || t::text), 1, 8)`;
const EACH = (rows: string) => `FROM generate_series(1, $2::int) t, generate_series(1, $1::int) s ORDER BY t, s ${rows}`;

export interface ModeledTable {
  table: string;
  /** Why this many rows: shown in the README table. */
  basis: string;
  /** Rows one scheduler adds per day (history), or holds (fixed). */
  rows: { perDay: number; keep: RetentionKind } | { fixed: number };
  /** Rows per scheduler to seed for the measurement (enough pages to average out page granularity). */
  seedRows: number;
  insert: string;
}

/** Assumed rate of rare events (holder changes, stale writes, alert transitions): one an hour per scheduler, a pessimistic churn. */
export const RARE_PER_DAY = 24;

/**
 * Reports are stored as runs (migration 0025_report_runs): a row per occurrence, cadence change or
 * break; one byte per report in it, ten more for one that moves the cursor. The modeled job is the
 * retention planner's shape: an occurrence every 5 min whose cursor moves at each of its first
 * ADVANCES_PER_OCCURRENCE reports (40 s of work at a report every 2 s) — one run — then one run of
 * idle reports (nothing in flight) until the next.
 */
export const ADVANCES_PER_OCCURRENCE = 20;
const REPORTS_PER_OCCURRENCE = RETENTION_PLANNER_EVERY_MS / DEFAULT_REPORT_EVERY_MS;
const REPORT_RUNS_BASIS = `a report every ${DEFAULT_REPORT_EVERY_MS / 1000} s, as runs: 2 per ${RETENTION_PLANNER_EVERY_MS / 60_000} min occurrence (${ADVANCES_PER_OCCURRENCE} advancing reports, then ${REPORTS_PER_OCCURRENCE - ADVANCES_PER_OCCURRENCE} idle)`;

/** A run as the size model writes it: its reports, and how many of the later ones moved the cursor. */
interface RunShape {
  reports: number;
  steps: number;
}

/**
 * Runs of the given shapes in turn (row t has shape t mod shapes). Offset bytes are random, so
 * incompressible (real jitter compresses better); steps are the run's first later reports.
 */
export function reportRunsInsert(shapes: readonly RunShape[]): string {
  const pick = (f: (shape: RunShape) => string) => `(CASE t % ${shapes.length} ${shapes.map((shape, i) => `WHEN ${i} THEN ${f(shape)}`).join(' ')} END)`;
  const bytes = (n: number) =>
    n === 0
      ? 'NULL::bytea'
      : `substring((SELECT string_agg(decode(md5(s::text || '/' || t::text || '/' || k::text), 'hex'), ''::bytea)
                    FROM generate_series(1, ${Math.ceil(n / 16)}) k) FROM 1 FOR ${n})`;
  return `INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at, report_every_ms, last_seq, last_at, offsets, steps, step_cursors)
          SELECT ${NAME}, 3, t * 1000, ${KEY}, t * 500, true, now() - t * interval '2 s', ${DEFAULT_REPORT_EVERY_MS},
                 ${pick((r) => (r.reports > 1 ? `t * 1000 + ${r.reports - 1}` : 'NULL::int'))},
                 ${pick((r) => (r.reports > 1 ? `now() - t * interval '2 s' + ${r.reports - 1} * interval '2 s'` : 'NULL::timestamptz'))},
                 ${pick((r) => bytes(r.reports - 1))},
                 ${pick((r) => (r.steps > 0 ? `(SELECT array_agg(k::smallint) FROM generate_series(1, ${r.steps}) k)` : 'NULL::smallint[]'))},
                 ${pick((r) => (r.steps > 0 ? `(SELECT array_agg((t * 500 + k * 17)::bigint) FROM generate_series(1, ${r.steps}) k)` : 'NULL::bigint[]'))} ${EACH('')}`;
}

/** A scheduler whose reports change nothing all day: runs of 1,800 reports (the cap: an hour), 24 a day. */
export const QUIET_REPORTS: ModeledTable = {
  table: 'progress_reports',
  basis: 'a quiet scheduler: a report every 2 s that changes nothing, runs of 1,800 (the cap: an hour)',
  rows: { perDay: 24, keep: 'reports' },
  seedRows: 100,
  insert: reportRunsInsert([{ reports: 1_800, steps: 0 }]),
};

export function modeledTables(planItemsPerOccurrence: number): ModeledTable[] {
  const planOccurrences = Math.min(DEFAULT_RETENTION.planOccurrences, Math.floor(DEFAULT_RETENTION.keepMs.planItems / RETENTION_PLANNER_EVERY_MS));
  return [
    {
      table: 'progress_reports',
      basis: REPORT_RUNS_BASIS,
      rows: { perDay: (DAY_MS / RETENTION_PLANNER_EVERY_MS) * 2, keep: 'reports' },
      seedRows: 1_000,
      insert: reportRunsInsert([
        { reports: ADVANCES_PER_OCCURRENCE, steps: ADVANCES_PER_OCCURRENCE - 1 },
        { reports: REPORTS_PER_OCCURRENCE - ADVANCES_PER_OCCURRENCE, steps: 0 },
      ]),
    },
    {
      table: 'renewal_gap_hours',
      basis: 'one rollup row per hour held: the longest gap of each of its 60 minutes',
      rows: { perDay: 24, keep: 'renewals' },
      seedRows: 240,
      insert: `INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals)
               SELECT ${NAME}, 3, date_trunc('hour', now()) - t * interval '1 hour',
                      (SELECT array_agg(5000 + (t * 60 + m) % 400) FROM generate_series(1, 60) m), 720 ${EACH('')}`,
    },
    {
      table: 'occurrences',
      basis: `one per ${RETENTION_PLANNER_EVERY_MS / 60_000} min cadence (retention-planner), until folded: the last two hours'`,
      rows: { fixed: (2 * 60 * 60_000) / RETENTION_PLANNER_EVERY_MS },
      seedRows: 288,
      insert: `INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at, completed_at, step, cursor)
               SELECT ${KEY}, ${NAME}, now() - t * interval '5 min', 'completed', 3, now() - t * interval '5 min', now() - t * interval '5 min' + interval '40 s', 1, 50000 ${EACH('')}`,
    },
    {
      table: 'occurrence_hours',
      basis: `the older occurrences folded, an hour to a row (${HOUR_MS / RETENTION_PLANNER_EVERY_MS} slots in it)`,
      rows: { perDay: 24, keep: 'occurrences' },
      seedRows: 240,
      insert: `INSERT INTO occurrence_hours (lease, hour, scheduled_ms, claimed_us, ended_us)
               SELECT ${NAME}, date_trunc('hour', now()) - t * interval '1 hour',
                      (SELECT array_agg(k * ${RETENTION_PLANNER_EVERY_MS}) FROM generate_series(0, ${HOUR_MS / RETENTION_PLANNER_EVERY_MS - 1}) k),
                      (SELECT array_agg(1000000 + (t * 13 + k * 7919) % 900000) FROM generate_series(1, ${HOUR_MS / RETENTION_PLANNER_EVERY_MS}) k),
                      (SELECT array_agg(40000000 + (t * 17 + k * 104729) % 9000000) FROM generate_series(1, ${HOUR_MS / RETENTION_PLANNER_EVERY_MS}) k) ${EACH('')}`,
    },
    {
      table: 'plan_items',
      basis: `${planItemsPerOccurrence.toLocaleString('en-US')} items × the last ${planOccurrences} occurrences`,
      rows: { fixed: planItemsPerOccurrence * planOccurrences },
      seedRows: 2_000,
      insert: `INSERT INTO plan_items (occurrence, document_id, policy, lease, epoch, written_at)
               SELECT ${NAME} || '@2026-12-01T16:00:00Z', t, (ARRAY['short','standard'])[1 + t % 2], ${NAME}, 3, now() ${EACH('')}`,
    },
    {
      table: 'lease_events',
      basis: `${RARE_PER_DAY} holder changes a day (assumed), until folded: today's (and yesterday's until 01:00 UTC)`,
      rows: { fixed: RARE_PER_DAY + 1 },
      seedRows: 200,
      insert: `INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at, previous_epoch, previous_holder, previous_ended_at, last_renewed_at)
               SELECT ${NAME}, 'taken_over', t + 1, ${TOKEN}, 'B', now() - t * interval '1 h', t, ${TOKEN}, now() - t * interval '1 h', now() - t * interval '1 h' - interval '5 s' ${EACH('')}`,
    },
    {
      table: 'lease_event_days',
      basis: `the older events folded, a day to a row (${RARE_PER_DAY} takeovers in it, each by a new holder)`,
      rows: { perDay: 1, keep: 'leaseEvents' },
      seedRows: 60,
      insert: `INSERT INTO lease_event_days (lease, day, nums, holders, labels)
               SELECT ${NAME}, date_trunc('day', now()) - t * interval '1 day',
                      (SELECT array_agg(ARRAY[(t * 100000 + s) * 24 + k, (k * 3600000000::bigint + (s * 7919 + t) % 1000000) * 4 + 1, t * 24 + k,
                                              t * 24 + k - 1, 2000000 + (s * 104729 + k) % 13000000, 7000000 + (s * 104729 + k) % 13000000])
                       FROM generate_series(1, ${RARE_PER_DAY}) k),
                      (SELECT string_agg('inst_' || substr(md5(s::text || t::text || k::text), 1, 8), E'\\x1f') FROM generate_series(1, ${RARE_PER_DAY}) k),
                      (SELECT string_agg('B', E'\\x1f') FROM generate_series(1, ${RARE_PER_DAY}) k) ${EACH('')}`,
    },
    {
      table: 'stale_write_rejections',
      basis: `${RARE_PER_DAY} refused stale writes a day (assumed)`,
      rows: { perDay: RARE_PER_DAY, keep: 'rejections' },
      seedRows: 200,
      insert: `INSERT INTO stale_write_rejections (lease, attempted_epoch, current_epoch, resource, reason, at)
               SELECT ${NAME}, t, t + 1, 'plan_items', 'stale_epoch', now() - t * interval '1 h' ${EACH('')}`,
    },
    {
      table: 'alert_events',
      basis: `${RARE_PER_DAY} alert transitions a day (assumed), until folded: today's (and yesterday's until 01:00 UTC)`,
      rows: { fixed: RARE_PER_DAY + 1 },
      seedRows: 200,
      insert: `INSERT INTO alert_events (rule, scheduler, from_state, to_state, at, mode, lease, epoch)
               SELECT 'SchedulerStalled', ${NAME}, 'pending', 'firing', now() - t * interval '1 h', 'shadow', 'leaseboard-alerts', 7 ${EACH('')}`,
    },
    {
      table: 'alert_event_days',
      basis: `the older transitions folded, a day to a row (${RARE_PER_DAY} in it)`,
      rows: { perDay: 1, keep: 'alertEvents' },
      seedRows: 60,
      insert: `INSERT INTO alert_event_days (scheduler, day, ids, rules, kinds, at_us)
               SELECT ${NAME}, date_trunc('day', now()) - t * interval '1 day',
                      (SELECT array_agg((t * 100000 + s) * 24 + k) FROM generate_series(1, ${RARE_PER_DAY}) k),
                      (SELECT array_agg((ARRAY['SchedulerStalled', 'SchedulerNoLeader', 'SchedulerOverdue'])[1 + (s + k) % 3]) FROM generate_series(1, ${RARE_PER_DAY}) k),
                      (SELECT array_agg(((k % 3) * 16 + ((k + 1) % 3) * 4 + 1)::smallint) FROM generate_series(1, ${RARE_PER_DAY}) k),
                      (SELECT array_agg(k * 3600000000::bigint + (s * 7919 + t) % 1000000) FROM generate_series(1, ${RARE_PER_DAY}) k) ${EACH('')}`,
    },
    {
      table: 'health_changes',
      basis: `4 health changes per holder change (no leader, unknown, back to progressing, and one stall), ${4 * RARE_PER_DAY} a day (assumed); a steady scheduler adds none`,
      rows: { perDay: 4 * RARE_PER_DAY, keep: 'reports' },
      seedRows: 700,
      insert: `INSERT INTO health_changes (name, at, health, lease, epoch)
               SELECT ${NAME}, now() - t * interval '15 min', (ARRAY['no_leader','unknown','progressing','stalled'])[1 + t % 4], 'leaseboard-alerts', 7 ${EACH('')}`,
    },
    {
      table: 'leases',
      basis: 'one per scheduler',
      rows: { fixed: 1 },
      seedRows: 1,
      insert: `INSERT INTO leases (name, holder, holder_label, epoch, acquired_at, renewed_at, expires_at, ttl_ms, previous_holder, previous_ended_at, previous_released, previous_renewed_at, gap_bucket, gap_bucket_max_ms, gap_bucket_renewals)
               SELECT ${NAME}, ${TOKEN}, 'A', 3, now(), now(), now() + interval '15 s', ${DEFAULT_LEASE_TIMING.ttlMs}, ${TOKEN}, now(), false, now(), date_trunc('minute', now()), 5000, 12 ${EACH('')}`,
    },
    {
      table: 'progress_summaries',
      basis: 'one per scheduler',
      rows: { fixed: 1 },
      seedRows: 1,
      insert: `INSERT INTO progress_summaries (lease, epoch, first_report_at, last_report_at, last_seq, last_advance_at, in_flight, cursor, report_every_ms)
               SELECT ${NAME}, 3, now(), now(), 4000, now(), ${KEY}, 25000, ${DEFAULT_REPORT_EVERY_MS} ${EACH('')}`,
    },
    {
      table: 'schedulers',
      basis: 'one per scheduler',
      rows: { fixed: 1 },
      seedRows: 1,
      insert: `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at)
               SELECT ${NAME}, ${RETENTION_PLANNER_EVERY_MS}, ${DEFAULT_REPORT_EVERY_MS}, 300000, 300000, now() ${EACH('')}`,
    },
    {
      table: 'alert_state',
      basis: 'one per rule × scheduler, at most 4',
      rows: { fixed: 4 },
      seedRows: 4,
      insert: `INSERT INTO alert_state (rule, scheduler, state, active_at, fired_at, summary, updated_at, lease, epoch)
               SELECT (ARRAY['SchedulerStalled','SchedulerNoLeader','SchedulerUnknown','LeaseRenewalAtRisk'])[t], ${NAME}, 'firing', now(), now(),
                      'work stalled: no advance for 6 min (stall after 5 min)', now(), 'leaseboard-alerts', 7 ${EACH('')}`,
    },
  ];
}

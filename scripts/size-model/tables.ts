/**
 * What the size model seeds: per table, how many rows one scheduler adds per
 * day at the default cadences (or holds, for fixed-size tables), how long they
 * are kept (DEFAULT_RETENTION), and a generate_series statement that writes
 * `$1` schedulers × `$2` rows each with realistic widths (names, keys, tokens).
 * Rows are written interleaved in time order (every scheduler's row for one
 * instant, then the next), as the live system writes them, so indexes split
 * pages as they do in production rather than filling them sorted.
 */
import type { RetentionKind } from '../../lib/retention/policy';
import { DEFAULT_LEASE_TIMING } from '../../lib/lease';
import { DEFAULT_REPORT_EVERY_MS } from '../../lib/status/thresholds';
import { MEASURED_REPORT_JITTER } from './jitter';

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
const RARE_PER_DAY = 24;

/**
 * Reports are stored as runs (migrations 0025_report_runs, 0028_report_events): a row per
 * 1,600 packed bytes or hour, unless a break or a cadence change comes first; in it about half a byte
 * per quiet report, a few bytes per cursor move or occurrence change. The modeled job is the
 * retention planner's shape: an occurrence every 5 min, claimed at cursor 0, whose cursor moves
 * by CURSOR_STEP at each of its first ADVANCES_PER_OCCURRENCE reports (40 s of work at a report
 * every 2 s), then idle (nothing in flight) until the next. No break all day: each lost report or
 * silence would add a row.
 */
const ADVANCES_PER_OCCURRENCE = 20;
/** The cursor's move between two reports of the modeled job: its 50,000 documents in 20 reports. */
const CURSOR_STEP = 2_500;
/** The modeled job's cadence: one occurrence every 5 minutes (the demo's retention planner runs at this cadence). */
const MODEL_JOB_EVERY_MS = 5 * 60_000;
const REPORTS_PER_OCCURRENCE = MODEL_JOB_EVERY_MS / DEFAULT_REPORT_EVERY_MS;
/** A run holds an hour of reports at most (REPORT_RUN_MAX_MS), and ends once its packed bytes reach this (migration 0028_report_events). */
const REPORTS_PER_HOUR = 3_600_000 / DEFAULT_REPORT_EVERY_MS;
const RUN_MAX_PACKED_BYTES = 1_600;
/** The seed's unit is an hour of one scheduler's reports: the runs they make (bytes per row below are an hour's). */
const HOURS_PER_DAY = 24;
const REPORT_RUNS_BASIS = `a report every ${DEFAULT_REPORT_EVERY_MS / 1000} s, as runs of ≤ ${RUN_MAX_PACKED_BYTES.toLocaleString('en-US')} packed bytes within an hour: ${MODEL_JOB_EVERY_MS / 60_000} min occurrences (${ADVANCES_PER_OCCURRENCE} advancing reports, then ${REPORTS_PER_OCCURRENCE - ADVANCES_PER_OCCURRENCE} idle) inside, jitter as measured; counted per hour (the runs an hour makes)`;

/** Distinct packed runs the seed draws from (their lengths vary with the jitter drawn). */
const VARIANTS = 64;

/**
 * Runs of an hour's reports, packed by the store's own encoder (the leaseboard_run_pack
 * aggregate over leaseboard_run_append; the run's last cursor move, which leaseboard_report keeps in
 * last_move, is CURSOR_STEP once the run has made one: every move of the modeled job is), each quiet drawn from the jitter measured here
 * (./jitter.ts), never zeros that would pack or compress unrealistically well. `working`: the
 * modeled job; else a scheduler whose reports change nothing.
 */
function reportRunsInsert(working: boolean): string {
  const jitter = MEASURED_REPORT_JITTER.flatMap(([offset, count]) => Array<number>(count).fill(offset));
  const inFlight = `k % ${REPORTS_PER_OCCURRENCE} < ${ADVANCES_PER_OCCURRENCE}`;
  const occurrence = working
    ? `CASE WHEN ${inFlight} THEN 'scheduler-00000@' || to_char(timestamp '2026-12-03' + (k / ${REPORTS_PER_OCCURRENCE}) * interval '5 min', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END`
    : 'NULL::text';
  const cursor = working ? `CASE WHEN ${inFlight} THEN (k % ${REPORTS_PER_OCCURRENCE}) * ${CURSOR_STEP} END::bigint` : '1::bigint';
  // Each hour's stream is cut into runs where its packed bytes reach RUN_MAX_PACKED_BYTES (as leaseboard_report
  // ends a run), and each run packed afresh from its own first report (its last move known only from then on).
  return `WITH stream AS (
            SELECT v, k, (${`ARRAY[${jitter.join(',')}]`})[1 + floor(('x' || substr(md5(v || '/' || k), 1, 8))::bit(32)::bigint / 4294967296.0 * ${jitter.length})::int] AS off,
                   ${occurrence} AS occ, ${cursor} AS cur
            FROM generate_series(0, ${VARIANTS - 1}) v, generate_series(0, ${REPORTS_PER_HOUR - 1}) k),
          lagged AS (
            SELECT stream.*, lag(occ) OVER w AS prev_occ, lag(cur) OVER w AS prev_cur FROM stream WINDOW w AS (PARTITION BY v ORDER BY k)),
          framed AS (
            SELECT lagged.*, count(*) FILTER (WHERE cur <> prev_cur) OVER (PARTITION BY v ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS hour_moves_before
            FROM lagged),
          cut AS (
            SELECT framed.*, COALESCE(floor(length(leaseboard_run_pack('scheduler-00000', timestamptz '2026-12-03T00:00:00Z', off, prev_occ, occ, prev_cur, cur,
                                                                        CASE WHEN hour_moves_before > 0 THEN ${CURSOR_STEP}::bigint END)
                     FILTER (WHERE k > 0) OVER (PARTITION BY v ORDER BY k)) / ${RUN_MAX_PACKED_BYTES}.0), 0)::int AS run FROM framed),
          numbered AS (
            SELECT cut.*, min(k) OVER (PARTITION BY v, run) AS first_k,
                   count(*) FILTER (WHERE cur <> prev_cur) OVER (PARTITION BY v, run ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS moves_before
            FROM cut),
          runs AS (
            SELECT v, run, min(k) AS first_k, max(k) AS last_k,
                   (array_agg(occ ORDER BY k))[1] AS occ, (array_agg(cur ORDER BY k))[1] AS cur,
                   leaseboard_run_pack('scheduler-00000', timestamptz '2026-12-03T00:00:00Z' + first_k * interval '2 s', off, prev_occ, occ, prev_cur, cur,
                                       CASE WHEN moves_before > 0 THEN ${CURSOR_STEP}::bigint END ORDER BY k) FILTER (WHERE k > first_k) AS packed,
                   bool_or(k > first_k AND (cur IS DISTINCT FROM prev_cur OR occ IS DISTINCT FROM prev_occ)) AS later_advance
            FROM numbered GROUP BY v, run)
          INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at, report_every_ms, last_seq, last_at, packed, later_advance, last_move)
          SELECT ${NAME}, 3, t * ${REPORTS_PER_HOUR} + r.first_k, ${NAME} || substr(r.occ, 16), r.cur, true,
                 now() - t * interval '1 hour' + r.first_k * interval '2 s', ${DEFAULT_REPORT_EVERY_MS},
                 t * ${REPORTS_PER_HOUR} + r.last_k, now() - t * interval '1 hour' + r.last_k * interval '2 s',
                 r.packed, CASE WHEN r.later_advance THEN true END, ${working ? `${CURSOR_STEP}` : 'NULL'}
          FROM generate_series(1, $2::int) t CROSS JOIN generate_series(1, $1::int) s
          JOIN runs r ON r.v = (s * 7 + t) % ${VARIANTS} ORDER BY t, s, r.run`;
}

/** A scheduler whose reports change nothing all day: the same runs, with nothing in them but the jitter. */
export const QUIET_REPORTS: ModeledTable = {
  table: 'progress_reports',
  basis: `a quiet scheduler: a report every 2 s that changes nothing, in runs of ≤ ${RUN_MAX_PACKED_BYTES.toLocaleString('en-US')} packed bytes within an hour; counted per hour`,
  rows: { perDay: HOURS_PER_DAY, keep: 'reports' },
  seedRows: 48,
  insert: reportRunsInsert(false),
};

export function modeledTables(): ModeledTable[] {
  return [
    {
      table: 'progress_reports',
      basis: REPORT_RUNS_BASIS,
      rows: { perDay: HOURS_PER_DAY, keep: 'reports' },
      seedRows: 48,
      insert: reportRunsInsert(true),
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
      basis: `one per ${MODEL_JOB_EVERY_MS / 60_000} min cadence (the modeled job), until folded: the last two hours'`,
      rows: { fixed: (2 * 60 * 60_000) / MODEL_JOB_EVERY_MS },
      seedRows: 288,
      insert: `INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at, completed_at, step, cursor)
               SELECT ${KEY}, ${NAME}, now() - t * interval '5 min', 'completed', 3, now() - t * interval '5 min', now() - t * interval '5 min' + interval '40 s', 1, 50000 ${EACH('')}`,
    },
    {
      table: 'occurrence_hours',
      basis: `the older occurrences folded, an hour to a row (${HOUR_MS / MODEL_JOB_EVERY_MS} slots in it)`,
      rows: { perDay: 24, keep: 'occurrences' },
      seedRows: 240,
      insert: `INSERT INTO occurrence_hours (lease, hour, scheduled_ms, claimed_us, ended_us)
               SELECT ${NAME}, date_trunc('hour', now()) - t * interval '1 hour',
                      (SELECT array_agg(k * ${MODEL_JOB_EVERY_MS}) FROM generate_series(0, ${HOUR_MS / MODEL_JOB_EVERY_MS - 1}) k),
                      (SELECT array_agg(1000000 + (t * 13 + k * 7919) % 900000) FROM generate_series(1, ${HOUR_MS / MODEL_JOB_EVERY_MS}) k),
                      (SELECT array_agg(40000000 + (t * 17 + k * 104729) % 9000000) FROM generate_series(1, ${HOUR_MS / MODEL_JOB_EVERY_MS}) k) ${EACH('')}`,
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
               SELECT ${NAME}, ${MODEL_JOB_EVERY_MS}, ${DEFAULT_REPORT_EVERY_MS}, 300000, 300000, now() ${EACH('')}`,
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

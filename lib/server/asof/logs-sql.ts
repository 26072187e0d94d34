/**
 * The logs read behind `?at=` and history: ONE statement that returns, for one
 * scheduler and a span [from, to], everything needed to rebuild its facts as
 * of any instant in the span (./facts-at.ts) — lease events, intent audit,
 * per-epoch report state at `from`, per-bucket report aggregates, report
 * breaks, renewal-gap minutes and the occurrence slot at each bucket end (rows and
 * folded hours, migration 0031_occurrence_hours).
 *
 * Reports are stored as runs (migrations 0025_report_runs, 0028_report_events: a
 * row stands for consecutive reports of one epoch and cadence with no break
 * between them, each report's seq, millisecond, occurrence, cursor and advance
 * kept); every read below expands the runs it meets back into the reports
 * they stand for (RUN_REPORTS), so everything after sees what the
 * row-per-report store held, report by report.
 *
 * Bounded by indexes: progress_reports only through (lease, epoch,
 * reported_at) with the epoch fixed and a reported_at range (widened by
 * REPORT_RUN_MAX_MS, the longest a run spans); intent_audit through (lease,
 * at); renewal_gap_hours through its primary key. Lease events: the lease's
 * whole log, rows (through (lease, at)) and folded days (through the primary
 * key of lease_event_days, migration 0034), as leaseboard_lease_log unpacks
 * them — bounded by retention (about 24 a day kept 30 days, assumed).
 * Work grows with the reports in the span (≤ 24 h), never with all reports.
 *
 * Alert transitions (alert_events through (scheduler, at), and alert_event_days through its primary
 * key: ALERT_LOG): each rule's
 * last one at or before `from` (the alert's state then) and those in the span.
 *
 * Params: $1 name, $2 from, $3 to, $4 bucket ends (timestamptz[]),
 * $5 bucket ms, $6 default stall ms, $7 default report-every ms, $8 event limit,
 * $9 the scheduler rules (text[]).
 * Breaks follow the report-break rule (lib/status/report-break.ts), the very
 * expression the store applies as reports arrive: a seq jump is
 * `lost_reports`, else a quiet longer than SILENCE_FACTOR × the cadence the
 * earlier report was sent with is `silence` (rows from before reports kept
 * their cadence fall back to the registration's, else the summary's).
 */
import { occurrenceKeySql } from '../../lease';
import { reportBreakSql } from '../../status';
import { dueSlotOf, msOf } from '../live/facts-sql';
import { EVENT_COLUMNS } from './recent-sql';

/**
 * The longest a run of reports spans (first to last report), as leaseboard_report caps it
 * (migrations 0025_report_runs, 0028_report_events): a run that reaches into a range starts at most this long before it.
 */
const REPORT_RUN_MAX_MS = 60 * 60_000;
const RUN_REACH = `interval '${REPORT_RUN_MAX_MS} milliseconds'`;

/**
 * The reports a stored run stands for (migration 0028_report_events), one row each, as the
 * row-per-report store held them: leaseboard_run_reports reads its packed bytes back (the k-th
 * after the first is \`seq + k\`, its time, occurrence, cursor and advance from the events).
 */
const RUN_REPORTS = `CROSS JOIN LATERAL (
      SELECT x.reported_at, x.seq, x.occurrence, x.cursor::float8 AS cursor, x.advanced, x.report_every_ms
      FROM leaseboard_run_reports(r.lease, r.reported_at, r.seq, r.occurrence, r.cursor, r.advanced, r.report_every_ms, r.packed) x) e`;

/** The reports of an epoch's runs that fall in a range: runs that start at most REPORT_RUN_MAX_MS before it. */
function reportsIn(epoch: string, after: string, until: string, columns: string): string {
  return `SELECT ${columns} FROM progress_reports r ${RUN_REPORTS}
      WHERE r.lease = $1 AND r.epoch = ${epoch} AND r.reported_at > ${after} - ${RUN_REACH} AND r.reported_at <= ${until}
        AND COALESCE(r.last_at, r.reported_at) > ${after} AND e.reported_at > ${after} AND e.reported_at <= ${until}`;
}

/** The last report of an epoch at or before (\`<=\`) or before (\`<\`) an instant: in the last run that starts by then. */
function lastReport(epoch: string, op: '<=' | '<', instant: string, columns: string): string {
  return `SELECT ${columns} FROM (SELECT * FROM progress_reports r WHERE r.lease = $1 AND r.epoch = ${epoch} AND r.reported_at ${op} ${instant}
        ORDER BY r.reported_at DESC, r.id DESC LIMIT 1) r ${RUN_REPORTS}
      WHERE e.reported_at ${op} ${instant} ORDER BY e.reported_at DESC LIMIT 1`;
}

/**
 * The last advance of an epoch at or before an instant. It is in the last run that starts by then
 * and holds an advance, unless all of that run's come later: then in the run with advances before it.
 */
function lastAdvance(epoch: string, instant: string): string {
  return `SELECT e.reported_at FROM (SELECT * FROM progress_reports r WHERE r.lease = $1 AND r.epoch = ${epoch} AND r.reported_at <= ${instant}
        AND (r.advanced OR r.later_advance) ORDER BY r.reported_at DESC, r.id DESC LIMIT 2) r ${RUN_REPORTS}
      WHERE e.advanced AND e.reported_at <= ${instant} ORDER BY e.reported_at DESC LIMIT 1`;
}

const REPORT_ROW = `e.reported_at, e.seq, e.occurrence, e.cursor, e.advanced, e.report_every_ms`;
const WIN_ROW = `e.reported_at, e.seq, e.report_every_ms`;

/**
 * The renewal-gap minutes the span reads (from 2 minutes before its first minute to 1 minute past its
 * end), unpacked from their hour rows (migration 0030_renewal_gap_hours: slot i of an hour is its
 * minute i − 1; null, no renewal closed that minute): the minute rows of migration 0001, one for one.
 */
/**
 * The newest folded occurrence claimed by \`e.t\` (migration 0031_occurrence_hours: slot i of an hour
 * row is one occurrence — its slot scheduled_ms[i] after the hour, its claim claimed_us[i] after its
 * slot, its end ended_us[i] after its claim — keyed by its slot). A claim is never before its slot,
 * so no hour after \`e.t\` holds one; the hours are walked newest first and the first with a claim by
 * \`e.t\` answers (an hour's slots all come after the older hours').
 */
const FOLDED_OCCURRENCE_CLAIMED_BY_T = `SELECT ${occurrenceKeySql('$1', 'f.scheduled_at')} AS key, f.scheduled_at, f.completed_at
         FROM occurrence_hours h CROSS JOIN LATERAL (
           SELECT u.scheduled_at, u.scheduled_at + u.claimed_us * interval '1 microsecond' AS claimed_at,
                  u.scheduled_at + (u.claimed_us + u.ended_us) * interval '1 microsecond' AS completed_at
           FROM (SELECT h.hour + z.ms * interval '1 millisecond' AS scheduled_at, z.claimed_us, z.ended_us
                 FROM unnest(h.scheduled_ms, h.claimed_us, h.ended_us) z(ms, claimed_us, ended_us)) u) f
         WHERE h.lease = $1 AND h.hour <= e.t AND f.claimed_at <= e.t
         ORDER BY h.hour DESC, f.scheduled_at DESC LIMIT 1`;

/**
 * The scheduler's alert transitions up to the span's end: rows, and the days folded a day to a row
 * (migration 0032_alert_event_days: slot i of a day is one transition, its states and mode in kinds[i],
 * at at_us[i] after the day).
 */
const ALERT_LOG = `alert_log AS MATERIALIZED (
    SELECT a.id, a.rule, a.from_state, a.to_state, a.mode, a.at FROM alert_events a WHERE a.scheduler = $1 AND a.at <= $3
    UNION ALL
    SELECT u.id, u.rule, k.from_state, k.to_state, k.mode, d.day + u.at_us * interval '1 microsecond'
    FROM alert_event_days d
    CROSS JOIN LATERAL unnest(d.ids, d.rules, d.kinds, d.at_us) u(id, rule, kind, at_us)
    CROSS JOIN LATERAL leaseboard_alert_kind_names(u.kind) k
    WHERE d.scheduler = $1 AND d.day <= $3
  )`;

const RENEWAL_MINUTES = `renewal_minutes AS (
    SELECT m.epoch, m.minute, m.max_gap_ms
    FROM (SELECT date_trunc('minute', $2::timestamptz) - interval '2 minutes' AS lo, $3::timestamptz + interval '1 minute' AS hi) b
    CROSS JOIN LATERAL (
      SELECT h.epoch, h.hour + (u.slot - 1) * interval '1 minute' AS minute, u.max_gap_ms
      FROM renewal_gap_hours h CROSS JOIN LATERAL unnest(h.max_gap_ms) WITH ORDINALITY u(max_gap_ms, slot)
      WHERE h.lease = $1 AND h.hour >= leaseboard_gap_hour(b.lo) AND h.hour <= b.hi AND u.max_gap_ms IS NOT NULL) m
    WHERE m.minute >= b.lo AND m.minute <= b.hi
  )`;

export const LOGS_SQL = `
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now),
  s AS (SELECT * FROM schedulers WHERE name = $1),
  l AS (SELECT * FROM leases WHERE name = $1),
  p AS (SELECT * FROM progress_summaries WHERE lease = $1),
  known AS (SELECT EXISTS (SELECT 1 FROM s) OR EXISTS (SELECT 1 FROM l)
                OR EXISTS (SELECT 1 FROM scheduler_intents WHERE lease = $1) AS known),
  cfg AS (SELECT COALESCE((SELECT stall_after_ms FROM s), $6::int) AS stall_ms,
                 COALESCE((SELECT report_every_ms FROM s), (SELECT report_every_ms FROM p), $7::int) AS every_ms),
  lease_log AS MATERIALIZED (SELECT * FROM leaseboard_lease_log($1, 'infinity')),
  ev AS (
    (SELECT * FROM lease_log WHERE at < $2 ORDER BY at DESC, id DESC LIMIT 2)
    UNION ALL (SELECT * FROM lease_log WHERE at >= $2 AND at <= $3 ORDER BY at, id LIMIT $8::int)
    UNION ALL (SELECT * FROM lease_log WHERE at > $3 ORDER BY at, id LIMIT 1)
  ),
  ep0 AS (SELECT epoch FROM ev UNION SELECT epoch FROM l),
  ep AS (
    SELECT epoch FROM ep0
    UNION SELECT o.epoch FROM (SELECT r.epoch FROM progress_reports r
      WHERE r.lease = $1 AND r.epoch < (SELECT COALESCE(min(epoch), 9223372036854775807) FROM ep0)
      ORDER BY r.epoch DESC LIMIT 1) o
  ),
  carry AS (
    SELECT ep.epoch, lr.reported_at, lr.seq, lr.occurrence, lr.cursor, lr.report_every_ms, la.reported_at AS adv_at
    FROM ep
    JOIN LATERAL (${lastReport('ep.epoch', '<=', '$2', REPORT_ROW)}) lr ON true
    LEFT JOIN LATERAL (${lastAdvance('ep.epoch', '$2')}) la ON true
  ),
  span AS (
    SELECT ep.epoch, x.*, GREATEST(0, ceil(extract(epoch FROM x.reported_at - $2) * 1000 / $5::int) - 1)::int AS i
    FROM ep JOIN LATERAL (${reportsIn('ep.epoch', '$2::timestamptz', '$3::timestamptz', REPORT_ROW)}) x ON true
  ),
  buckets AS (
    SELECT i, epoch, count(*)::int AS n, (count(*) FILTER (WHERE advanced))::int AS adv,
      ${msOf('max(reported_at)')} AS last_ms, ${msOf('max(reported_at) FILTER (WHERE advanced)')} AS adv_ms,
      (array_agg(seq ORDER BY reported_at DESC))[1] AS seq,
      (array_agg(occurrence ORDER BY reported_at DESC))[1] AS occ,
      (array_agg(cursor ORDER BY reported_at DESC))[1] AS cursor,
      (array_agg(report_every_ms ORDER BY reported_at DESC))[1] AS every
    FROM span GROUP BY i, epoch
  ),
  win AS (
    SELECT ep.epoch, x.reported_at, x.seq, x.report_every_ms FROM ep, cfg, LATERAL (
      (${reportsIn('ep.epoch', `($2::timestamptz - cfg.stall_ms * interval '1 millisecond' - interval '1 microsecond')`, '$3::timestamptz', WIN_ROW)})
      UNION ALL
      (${lastReport('ep.epoch', '<', `($2::timestamptz - cfg.stall_ms * interval '1 millisecond')`, WIN_ROW)})
    ) x
  ),
  breaks AS (
    SELECT y.epoch, y.prev_at, y.reported_at, y.reason FROM (
      SELECT z.epoch, z.prev_at, z.reported_at,
        ${reportBreakSql({ prevSeq: 'z.prev_seq', seq: 'z.seq', prevAt: 'z.prev_at', at: 'z.reported_at', prevEveryMs: 'COALESCE(z.prev_every, cfg.every_ms)' })} AS reason
      FROM (SELECT w.*, lag(w.reported_at) OVER o AS prev_at, lag(w.seq) OVER o AS prev_seq, lag(w.report_every_ms) OVER o AS prev_every
            FROM win w WINDOW o AS (PARTITION BY w.epoch ORDER BY w.reported_at)) z, cfg
      WHERE z.prev_at IS NOT NULL) y
    WHERE y.reason IS NOT NULL
  ),
  ${RENEWAL_MINUTES},
  ${ALERT_LOG},
  -- The due occurrence at each instant t, as the live read defines it: the
  -- newest occurrence claimed by t if it was still running then, else the
  -- slot after it, else the first slot since registration.
  slots AS (
    SELECT e.i, k.slot, k.key, k.running
    FROM s
    CROSS JOIN unnest($4::timestamptz[]) WITH ORDINALITY e(t, i)
    LEFT JOIN LATERAL (
      SELECT o.key, o.scheduled_at, (o.completed_at IS NULL OR o.completed_at > e.t) AS running FROM (
        (SELECT o.key, o.scheduled_at, o.completed_at
         FROM occurrences o WHERE o.lease = $1 AND o.claimed_at <= e.t
         ORDER BY o.scheduled_at DESC LIMIT 1)
        UNION ALL (${FOLDED_OCCURRENCE_CLAIMED_BY_T})
      ) o ORDER BY o.scheduled_at DESC LIMIT 1
    ) o ON true
    CROSS JOIN LATERAL (
      SELECT CASE WHEN o.running THEN o.key ELSE ${occurrenceKeySql('$1', 'x.slot')} END AS key, x.slot,
             coalesce(o.running, false) AS running
      FROM (SELECT ${dueSlotOf('o', 's')} AS slot) x
    ) k
    WHERE s.every_ms > 0
  )
SELECT ${msOf('c.now')} AS now_ms, (SELECT known FROM known) AS known, (SELECT every_ms FROM cfg) AS every_ms,
  (SELECT row_to_json(x) FROM (SELECT every_ms, report_every_ms, stall_after_ms, overdue_after_ms FROM s) x) AS registration,
  -- Labels are not kept in history: the scheduler's labels now (an operator's, else its registration's).
  COALESCE((SELECT labels FROM label_overrides WHERE name = $1), (SELECT labels FROM s), '{}'::jsonb) AS labels,
  (SELECT row_to_json(x) FROM (SELECT holder, holder_label AS label, epoch::float8 AS epoch, ${msOf('acquired_at')} AS acquired_ms,
     ${msOf('renewed_at')} AS renewed_ms, ${msOf('expires_at')} AS expires_ms, ttl_ms, ${msOf('released_at')} AS released_ms,
     ${msOf('gap_bucket')} AS gap_bucket_ms, gap_bucket_max_ms FROM l) x) AS lease,
  (SELECT json_agg(x ORDER BY x.at_ms, x.id) FROM (SELECT ${EVENT_COLUMNS} FROM ev) x) AS events,
  (SELECT json_agg(x ORDER BY x.at_ms) FROM (
     (SELECT disabled, by, reason, ${msOf('at')} AS at_ms FROM intent_audit WHERE lease = $1 AND at <= $2 ORDER BY at DESC, id DESC LIMIT 1)
     UNION ALL (SELECT disabled, by, reason, ${msOf('at')} FROM intent_audit WHERE lease = $1 AND at > $2 AND at <= $3 ORDER BY at, id LIMIT 1000)) x) AS intents,
  (SELECT json_agg(x) FROM (SELECT -1 AS i, epoch::float8 AS epoch, 0 AS n, 0 AS adv, ${msOf('reported_at')} AS last_ms, ${msOf('adv_at')} AS adv_ms,
     seq, occurrence AS occ, cursor, report_every_ms AS every FROM carry) x) AS carry,
  (SELECT json_agg(x ORDER BY x.i, x.epoch) FROM (SELECT i, epoch::float8 AS epoch, n, adv, last_ms, adv_ms, seq, occ, cursor, every FROM buckets) x) AS buckets,
  (SELECT json_agg(x ORDER BY x.to_ms) FROM (SELECT epoch::float8 AS epoch, ${msOf('prev_at')} AS from_ms, ${msOf('reported_at')} AS to_ms, reason
     FROM breaks) x) AS breaks,
  (SELECT json_agg(x) FROM (SELECT epoch::float8 AS epoch, ${msOf('minute')} AS minute_ms, max_gap_ms FROM renewal_minutes) x) AS renewals,
  (SELECT json_agg(x ORDER BY x.i) FROM (SELECT (i - 1)::int AS i, ${msOf('slot')} AS slot_ms, key, running FROM slots) x) AS slots,
  (SELECT json_agg(x ORDER BY x.at_ms, x.id) FROM (
     (SELECT e.id, e.rule, e.from_state, e.to_state, e.mode, ${msOf('e.at')} AS at_ms FROM unnest($9::text[]) r(rule)
        CROSS JOIN LATERAL (SELECT * FROM alert_log a WHERE a.rule = r.rule AND a.at <= $2
                            ORDER BY a.at DESC, a.id DESC LIMIT 1) e)
     UNION ALL (SELECT id, rule, from_state, to_state, mode, ${msOf('at')} FROM alert_log
                WHERE at > $2 AND at <= $3 ORDER BY at, id LIMIT $8::int)) x) AS alerts
FROM c`;

-- Bounded: no new table. Runs live in progress_reports' partitions (the CREATE TABLE … PARTITION OF
-- below is the pruner's existing partition round), a run never outlives its partition, and partitions are
-- dropped whole past LEASEBOARD_RETAIN_REPORTS (lib/retention/policy.ts), as before.
-- Reports stored by what they say (issue 21): a progress_reports row is a RUN of consecutive reports
-- of one epoch, occurrence and cadence, each seq the one after, no break between them (the report-break
-- rule, lib/status/report-break.ts, written out below). `seq`, `reported_at`, `cursor`, `advanced` are
-- the run's first report's; `last_seq` and `last_at` its last's (null: a run of one, as every row
-- before this migration); `offsets` one byte per later report: its quiet after the report before, in
-- ms, minus the cadence, plus 128; `steps` the index k (first report 0) of each later report that moved
-- the cursor — an advance — and `step_cursors` the cursor from it on. So every report's seq, time,
-- cursor and advance are kept exactly, at about one byte each (ten more for an advance), and the as-of
-- rebuild (lib/server/asof/logs-sql.ts) expands a run back into the reports it stands for.
--
-- Report times are kept to the millisecond (the rebuild's unit), so the byte is exact. A new row
-- starts at another occurrence or cadence, at a break, at a report whose advance the run cannot hold, when its quiet is not within ±127 ms
-- of the cadence, after 1,800 reports or an hour (REPORT_RUN_MAX_MS), and at the end of the run's
-- partition: a run never outlives its partition's [from, to), so dropping a partition drops the
-- very reports it did before. A run in the default partition (none made yet) never grows.
--
-- Lock order (the pruner's partition round, migrations 0010/0011): a report takes ROW EXCLUSIVE on
-- progress_reports (the parent) before anything else. Its statement reads the open run before it
-- updates it, so it would otherwise take ACCESS SHARE on the parent first and then queue for ROW
-- EXCLUSIVE behind a partition round's SHARE ROW EXCLUSIVE; when that round then asks for ACCESS
-- EXCLUSIVE (CREATE TABLE … PARTITION OF, or a DROP), PostgreSQL sees the two upgrades cross on one
-- lock and fails the round at once with deadlock_detected (40P01) — no lock_timeout, so not `busy` —
-- and the round's other writes with it. Asking for the strongest lock first, as the row-per-report
-- INSERT did, a report holds nothing on progress_reports while it waits, so the round only ever
-- waits (its 200 ms lock_timeout: `busy`) or goes ahead of it.
ALTER TABLE "progress_reports" ADD COLUMN "last_seq" integer;--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "last_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "offsets" "bytea";--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "steps" smallint[];--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "step_cursors" bigint[];--> statement-breakpoint
-- Report progress (lib/scheduler/report-store.ts): extend the epoch's open run (an advance it holds
-- only when the cursor alone moved) or start a row, and move the summary unless an older epoch reports late.
-- Its break rule is lib/status/report-break.ts's reportBreakSql, written out (a test compares them).
CREATE OR REPLACE FUNCTION leaseboard_report(p_lease text, p_epoch bigint, p_seq int, p_occurrence text, p_cursor bigint, p_report_every_ms int)
RETURNS TABLE (advanced boolean, reported_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
-- Lock order: the strongest lock this report takes on progress_reports, first (see the header).
LOCK TABLE ONLY progress_reports IN ROW EXCLUSIVE MODE;
RETURN QUERY
WITH c AS (SELECT date_trunc('milliseconds', clock_timestamp()) AS now),
  prev AS (SELECT * FROM progress_summaries WHERE lease = $1),
  r AS (
    SELECT $1::text AS lease, $2::bigint AS epoch, $3::int AS seq, $4::text AS occurrence, $5::bigint AS cursor,
           $6::int AS every, c.now,
           (prev.lease IS NULL OR prev.epoch < $2::bigint
             OR prev.in_flight IS DISTINCT FROM $4::text OR prev.cursor IS DISTINCT FROM $5::bigint) AS advanced,
           CASE WHEN prev.epoch = $2::bigint THEN (CASE WHEN $3::int <> prev.last_seq + 1 THEN 'lost_reports'
      WHEN c.now - prev.last_report_at > 3 * (prev.report_every_ms) * interval '1 millisecond' THEN 'silence' END) END AS break_reason,
           prev.last_report_at AS break_from
    FROM c LEFT JOIN prev ON true
  ),
  open_run AS (
    SELECT o.id, o.reported_at, COALESCE(o.last_seq, o.seq) AS last_seq,
           (extract(epoch FROM r.now - COALESCE(o.last_at, o.reported_at)) * 1000)::int - o.report_every_ms + 128 AS offset_byte,
           r.cursor IS DISTINCT FROM o.run_cursor AS step, COALESCE(length(o.offsets), 0) + 1 AS k
    FROM r CROSS JOIN LATERAL (SELECT o.*, CASE WHEN cardinality(o.steps) > 0 THEN o.step_cursors[cardinality(o.step_cursors)]
                                                ELSE o.cursor END AS run_cursor
                               FROM progress_reports o WHERE o.lease = r.lease AND o.epoch = r.epoch
                               ORDER BY o.reported_at DESC, o.id DESC LIMIT 1) o
    WHERE r.advanced = (r.cursor IS DISTINCT FROM o.run_cursor) AND o.occurrence IS NOT DISTINCT FROM r.occurrence
      AND o.report_every_ms = r.every
      AND (CASE WHEN r.seq <> COALESCE(o.last_seq, o.seq) + 1 THEN 'lost_reports'
      WHEN r.now - COALESCE(o.last_at, o.reported_at) > 3 * (o.report_every_ms) * interval '1 millisecond' THEN 'silence' END) IS NULL
      AND COALESCE(length(o.offsets), 0) < 1799 AND r.now - o.reported_at < interval '1 hour'
      AND EXISTS (SELECT 1 FROM report_partitions p WHERE p."from" <= o.reported_at AND o.reported_at < p."to" AND r.now < p."to")
  ),
  extended AS (
    UPDATE progress_reports o SET last_seq = r.seq, last_at = r.now,
           offsets = COALESCE(o.offsets, '\x'::bytea) || set_byte('\x00'::bytea, 0, open_run.offset_byte),
           steps = CASE WHEN open_run.step THEN array_append(COALESCE(o.steps, '{}'), open_run.k::smallint) ELSE o.steps END,
           step_cursors = CASE WHEN open_run.step THEN array_append(COALESCE(o.step_cursors, '{}'), r.cursor) ELSE o.step_cursors END
    FROM open_run, r
    WHERE o.id = open_run.id AND o.reported_at = open_run.reported_at AND COALESCE(o.last_seq, o.seq) = open_run.last_seq
      AND open_run.offset_byte BETWEEN 0 AND 255
    RETURNING o.id
  ),
  appended AS (
    INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at, report_every_ms)
    SELECT lease, epoch, seq, occurrence, cursor, advanced, now, every FROM r WHERE NOT EXISTS (SELECT 1 FROM extended)
  ),
  summary AS (
    INSERT INTO progress_summaries AS s (lease, epoch, first_report_at, last_report_at, last_seq, last_advance_at,
                                         in_flight, cursor, report_every_ms, gap_from, gap_to, gap_reason)
    SELECT lease, epoch, now, now, seq, now, occurrence, cursor, every,
           CASE WHEN break_reason IS NOT NULL THEN break_from END,
           CASE WHEN break_reason IS NOT NULL THEN now END, break_reason
    FROM r
    ON CONFLICT (lease) DO UPDATE SET
      epoch = excluded.epoch,
      first_report_at = CASE WHEN s.epoch = excluded.epoch THEN s.first_report_at ELSE excluded.first_report_at END,
      last_report_at = excluded.last_report_at,
      last_seq = excluded.last_seq,
      last_advance_at = CASE WHEN (SELECT advanced FROM r) THEN excluded.last_advance_at ELSE s.last_advance_at END,
      in_flight = excluded.in_flight,
      cursor = excluded.cursor,
      report_every_ms = excluded.report_every_ms,
      gap_from = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_from ELSE s.gap_from END,
      gap_to = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_to ELSE s.gap_to END,
      gap_reason = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_reason ELSE s.gap_reason END,
      change_xid = pg_current_xact_id()
    WHERE s.epoch <= excluded.epoch
  )
SELECT advanced, now AS reported_at FROM r;
END
$fn$;

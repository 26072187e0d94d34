-- The status service re-judges a scheduler only when what its status says can change
-- (issue 21, item 2). leases and progress_summaries get a second stamp, touch_xid (migration
-- touch_stamps): the transaction that last wrote the row at all. change_xid stays the
-- transaction that last CHANGED what the status reads; a write that only moves times is a touch:
-- - a renewal (renewed_at, expires_at): leaseboard_renew_many, and leaseboard_renew through it;
-- - a report that says nothing new (last_report_at, last_seq): same epoch, in_flight, cursor and
--   report_every_ms, no advance, no break (lost seq or silence). Anything else stamps both.
-- The reader (lib/server/live/facts-sql.ts) re-reads changed rows whole and only the times of
-- touched ones; lib/server/live/live-index.ts says why the judgement then stays exact.
-- Answers and signatures are unchanged: only the stamps differ from 0024 / 0025.
-- Any other writer (plain SQL, drizzle, tests) stamps neither and is stamped as a change by
-- the trigger below, which now also stamps touch_xid, so touch_xid ⊇ change_xid always holds:
-- a changed row is a touched row, and the reader finds both in one scan of touch_xid.
CREATE OR REPLACE FUNCTION leaseboard_stamp_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.change_xid = OLD.change_xid THEN
    NEW.change_xid := pg_current_xact_id();
  END IF;
  NEW.touch_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER leases_stamp_change ON leases;
--> statement-breakpoint
CREATE TRIGGER leases_stamp_change BEFORE UPDATE ON leases FOR EACH ROW
  WHEN (NEW.touch_xid = OLD.touch_xid) EXECUTE FUNCTION leaseboard_stamp_touch();
--> statement-breakpoint
DROP TRIGGER progress_summaries_stamp_change ON progress_summaries;
--> statement-breakpoint
CREATE TRIGGER progress_summaries_stamp_change BEFORE UPDATE ON progress_summaries FOR EACH ROW
  WHEN (NEW.touch_xid = OLD.touch_xid) EXECUTE FUNCTION leaseboard_stamp_touch();
--> statement-breakpoint
-- Report progress: 0025_report_runs's body (extend the epoch's open run or start a row, its lock order
-- beside the partition round, the summary moved unless an older epoch reports late); only the stamps differ.
-- Its break rule is lib/status/report-break.ts's reportBreakSql, written out (a test compares them).
CREATE OR REPLACE FUNCTION leaseboard_report(p_lease text, p_epoch bigint, p_seq int, p_occurrence text, p_cursor bigint, p_report_every_ms int)
RETURNS TABLE (advanced boolean, reported_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
-- Lock order: the strongest lock this report takes on progress_reports, first (see migration 0025_report_runs).
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
      -- BEGIN change stamp rule (migration rejudge_only_changes): a report that moves only
      -- last_report_at and last_seq (same epoch, in_flight, cursor and cadence, no advance,
      -- no break) is a touch, not a change.
      change_xid = CASE WHEN s.epoch = excluded.epoch AND s.in_flight IS NOT DISTINCT FROM excluded.in_flight
                          AND s.cursor IS NOT DISTINCT FROM excluded.cursor AND s.report_every_ms = excluded.report_every_ms
                          AND excluded.gap_reason IS NULL AND NOT (SELECT advanced FROM r)
                        THEN s.change_xid ELSE pg_current_xact_id() END,
      touch_xid = pg_current_xact_id()
      -- END change stamp rule
    WHERE s.epoch <= excluded.epoch
  )
SELECT advanced, now AS reported_at FROM r;
END
$fn$;
--> statement-breakpoint
-- 0024's body; only the stamp differs.
CREATE OR REPLACE FUNCTION leaseboard_renew_many(p_names text[], p_holders text[], p_epochs bigint[])
RETURNS TABLE (i bigint, renewed_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute),
  wanted AS (
    SELECT DISTINCT ON (u.name) u.name, u.holder, u.epoch, u.i
    FROM c, unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS u(name, holder, epoch, i)
    JOIN leases l ON l.name = u.name AND l.holder = u.holder AND l.epoch = u.epoch
    WHERE l.released_at IS NULL AND l.expires_at > c.now
    ORDER BY u.name, u.i
  ),
  renewed AS (
UPDATE leases l SET
  renewed_at = c.now,
  expires_at = c.now + l.ttl_ms * interval '1 millisecond',
  gap_bucket = c.minute,
  gap_bucket_max_ms = CASE WHEN l.gap_bucket = c.minute
    THEN GREATEST(l.gap_bucket_max_ms, (extract(epoch FROM c.now - l.renewed_at) * 1000)::int)
    ELSE (extract(epoch FROM c.now - l.renewed_at) * 1000)::int END,
  gap_bucket_renewals = CASE WHEN l.gap_bucket = c.minute THEN l.gap_bucket_renewals + 1 ELSE 1 END,
  -- A renewal moves only renewed_at and expires_at (and the gap rollup, which the status does not read): a touch.
  touch_xid = pg_current_xact_id()
FROM c, wanted r
WHERE l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > c.now
RETURNING r.i, l.renewed_at, l.expires_at
)
SELECT i, renewed_at, expires_at FROM renewed;
END
$fn$;

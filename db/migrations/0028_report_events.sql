-- Reports stored by what they say, at about half a byte a quiet report (issue 21 item 1). A progress_reports
-- row is still a RUN of consecutive reports of one epoch and cadence with no break between them (the
-- report-break rule, lib/status/report-break.ts, written out below), but a run now goes on across cursor
-- moves and occurrence changes: they are events inside it. `seq`, `reported_at`, `occurrence`,
-- `cursor`, `advanced` stay the run's first report's; `last_seq`, `last_at` its last's (null: a run of
-- one); `packed` (replacing 0025's `offsets`, `steps`, `step_cursors`) the later reports, in order;
-- `later_advance` true when one of them advanced (null: none did), so the last advance is found as before.
--
-- `packed`, byte by byte (leaseboard_run_append writes it, leaseboard_run_reports reads it back;
-- an offset is a report's quiet after the one before, in ms, minus the cadence; `last_move` is the
-- run's last cursor move by a delta, kept in its column for the writer):
--   0–195    two reports, offsets b / 14 − 1 and b % 14 − 1 (both in −1…12 ms: the usual jitter, as a report
--            loop that sleeps its cadence after each report is always a little late: measured here,
--            86 % of quiets were 0–12 ms past the cadence, none before it)
--   196–225  one report, offset b − 197 (−1…28 ms; at 196–209, −1…12 ms, the next report, if in −1…12 ms
--            and with no event, turns it into a pair)
--   226–239  one report that moves the cursor by the run's last move again, offset b − 227 (−1…12 ms):
--            a job working through batches costs a byte a report
--   240 v    one report, offset zigzag(v)           v: an unsigned LEB128 varint
--   241 v    the next report moves the cursor by zigzag(v)
--   242 v    the next report's cursor is zigzag(v) (it had none)
--   243      the next report's cursor is none
--   244      the next report's occurrence is none
--   245 n s  the next report's occurrence is `lease || '@' || s` (s: n UTF-8 bytes; the product's key shape)
--   246 n s  the next report's occurrence is s
--   247–254  the next report moves the cursor by b − 246 (1 to 8)
--   255 v    the next report's occurrence is `lease@` and its slot, the run's first second + zigzag(v)
--            seconds, as the product writes it (YYYY-MM-DDTHH:MM:SSZ, UTC)
-- Events come before the code of the report they belong to, and a report advanced iff an event did:
-- within a run the epoch is the summary's, so an advance is exactly a moved cursor or another
-- occurrence. The stream always ends on a report code, so its last byte is a 196–209 single only when
-- it really is one (a varint's last byte is < 128). Every report's seq, millisecond, occurrence, cursor
-- and advance are kept exactly: the as-of rebuild (lib/server/asof/logs-sql.ts) sees what a row per
-- report held (lib/server/asof/report-runs.int.test.ts).
--
-- A run extends only the summary's own last report (same epoch, seq and time, so the summary's
-- in_flight and cursor are the run's last), and breaks, as in 0025, at a seq jump, a silence past its
-- bound, another cadence, 1,800 reports or an hour (REPORT_RUN_MAX_MS), its partition's end; at a
-- cursor beyond ±2^61 (its zigzag delta must fit a bigint); and once packed holds 1,600 bytes, so a
-- row stays far below TOAST's 2 kB (never compressed or moved out of line) and the new row version
-- each report writes (a HOT update, its WAL) stays small. A late report of an older epoch is a row
-- of its own. Lock order as 0025 (ROW EXCLUSIVE on the parent first).
--
-- Bounded: no new table; packed grows by ½ byte per quiet report in −1…12 ms, 1 up to 28 ms, 1 + a varint past that, a few per event,
-- capped with its run (1,800 reports).
CREATE OR REPLACE FUNCTION leaseboard_varint(p_value bigint) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  v bigint := p_value;
  bytes bytea := '\x';
BEGIN
  LOOP
    IF v < 128 THEN RETURN bytes || set_byte('\x00'::bytea, 0, v::int); END IF;
    bytes := bytes || set_byte('\x00'::bytea, 0, (128 + (v & 127))::int);
    v := v >> 7;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leaseboard_zigzag(p_value bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT CASE WHEN p_value >= 0 THEN 2 * p_value ELSE -2 * p_value - 1 END $$;
--> statement-breakpoint
-- One more report onto a run's packed bytes: its quiet offset (ms), its occurrence and cursor beside the
-- report's before it, the run's first report's time and its last cursor move (null: none, or not known).
CREATE OR REPLACE FUNCTION leaseboard_run_append(p_packed bytea, p_lease text, p_run_at timestamptz, p_offset int,
                                                 p_prev_occurrence text, p_occurrence text, p_prev_cursor bigint, p_cursor bigint,
                                                 p_last_move bigint) RETURNS bytea
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  packed bytea := COALESCE(p_packed, '\x'::bytea);
  events bytea := '\x';
  n int := length(packed);
  suffix text;
  bytes bytea;
  slot timestamptz;
  delta bigint;
  again boolean := false;
  last int;
BEGIN
  IF p_occurrence IS DISTINCT FROM p_prev_occurrence THEN
    IF p_occurrence IS NULL THEN
      events := events || '\xf4'::bytea;
    ELSIF left(p_occurrence, length(p_lease) + 1) = p_lease || '@' THEN
      suffix := substr(p_occurrence, length(p_lease) + 2);
      slot := NULL;
      IF suffix ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$' THEN
        BEGIN
          slot := suffix::timestamptz;
        EXCEPTION WHEN others THEN
          slot := NULL;
        END;
        IF to_char(slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') IS DISTINCT FROM suffix THEN slot := NULL; END IF;
      END IF;
      IF slot IS NOT NULL THEN
        events := events || '\xff'::bytea
          || leaseboard_varint(leaseboard_zigzag(extract(epoch FROM slot - date_trunc('second', p_run_at))::bigint));
      ELSE
        bytes := convert_to(suffix, 'UTF8');
        events := events || '\xf5'::bytea || leaseboard_varint(length(bytes)) || bytes;
      END IF;
    ELSE
      bytes := convert_to(p_occurrence, 'UTF8');
      events := events || '\xf6'::bytea || leaseboard_varint(length(bytes)) || bytes;
    END IF;
  END IF;
  IF p_cursor IS DISTINCT FROM p_prev_cursor THEN
    IF p_cursor IS NULL THEN
      events := events || '\xf3'::bytea;
    ELSIF p_prev_cursor IS NULL THEN
      events := events || '\xf2'::bytea || leaseboard_varint(leaseboard_zigzag(p_cursor));
    ELSE
      delta := p_cursor - p_prev_cursor;
      IF delta = p_last_move AND p_offset BETWEEN -1 AND 12 THEN
        again := true;
      ELSIF delta BETWEEN 1 AND 8 THEN
        events := events || set_byte('\x00'::bytea, 0, (246 + delta)::int);
      ELSE
        events := events || '\xf1'::bytea || leaseboard_varint(leaseboard_zigzag(delta));
      END IF;
    END IF;
  END IF;
  IF again THEN
    RETURN packed || events || set_byte('\x00'::bytea, 0, 227 + p_offset);
  END IF;
  IF p_offset BETWEEN -1 AND 12 AND length(events) = 0 AND n > 0 THEN
    last := get_byte(packed, n - 1);
    IF last BETWEEN 196 AND 209 THEN
      RETURN set_byte(packed, n - 1, (last - 196) * 14 + p_offset + 1);
    END IF;
  END IF;
  IF p_offset BETWEEN -1 AND 28 THEN
    RETURN packed || events || set_byte('\x00'::bytea, 0, 197 + p_offset);
  END IF;
  RETURN packed || events || '\xf0'::bytea || leaseboard_varint(leaseboard_zigzag(p_offset));
END $$;
--> statement-breakpoint
-- The same, over reports in order (the size model and the conversion below pack runs with it).
CREATE AGGREGATE leaseboard_run_pack(text, timestamptz, int, text, text, bigint, bigint, bigint) (
  SFUNC = leaseboard_run_append, STYPE = bytea, INITCOND = ''
);
--> statement-breakpoint
-- The reports a run stands for, one row each, as the row-per-report store held them.
CREATE OR REPLACE FUNCTION leaseboard_run_reports(p_lease text, p_at timestamptz, p_seq int, p_occurrence text, p_cursor bigint,
                                                  p_advanced boolean, p_every int, p_packed bytea)
RETURNS TABLE (reported_at timestamptz, seq int, occurrence text, cursor bigint, advanced boolean, report_every_ms int)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  n int := COALESCE(length(p_packed), 0);
  i int := 0;
  b int;
  x int;
  v bigint;
  shift int;
  offsets int[];
  ms bigint := 0;
  cur bigint := p_cursor;
  occ text := p_occurrence;
  last_move bigint;
  moved boolean := false;
BEGIN
  reported_at := p_at; seq := p_seq; occurrence := p_occurrence; cursor := p_cursor; advanced := p_advanced; report_every_ms := p_every;
  RETURN NEXT;
  WHILE i < n LOOP
    b := get_byte(p_packed, i);
    i := i + 1;
    IF b IN (240, 241, 242, 245, 246, 255) THEN
      v := 0; shift := 0;
      LOOP
        x := get_byte(p_packed, i);
        i := i + 1;
        v := v | ((x & 127)::bigint << shift);
        EXIT WHEN x < 128;
        shift := shift + 7;
      END LOOP;
      IF b NOT IN (245, 246) THEN
        v := CASE WHEN v & 1 = 0 THEN v >> 1 ELSE -((v + 1) >> 1) END; -- zigzag (a length is not)
      END IF;
    END IF;
    IF b <= 240 THEN
      IF b BETWEEN 226 AND 239 THEN
        cur := cur + last_move;
        moved := true;
      END IF;
      offsets := CASE WHEN b <= 195 THEN ARRAY[b / 14 - 1, b % 14 - 1] WHEN b <= 225 THEN ARRAY[b - 197]
                      WHEN b <= 239 THEN ARRAY[b - 227] ELSE ARRAY[v::int] END;
      FOREACH x IN ARRAY offsets LOOP
        ms := ms + p_every + x;
        reported_at := p_at + ms * interval '1 millisecond';
        seq := seq + 1; occurrence := occ; cursor := cur; advanced := moved; moved := false;
        RETURN NEXT;
      END LOOP;
    ELSE
      moved := true;
      IF b = 241 THEN cur := cur + v; last_move := v;
      ELSIF b = 242 THEN cur := v;
      ELSIF b = 243 THEN cur := NULL;
      ELSIF b = 244 THEN occ := NULL;
      ELSIF b IN (245, 246) THEN
        occ := (CASE WHEN b = 245 THEN p_lease || '@' ELSE '' END) || convert_from(substring(p_packed FROM i + 1 FOR v::int), 'UTF8');
        i := i + v::int;
      ELSIF b = 255 THEN
        occ := p_lease || '@' || to_char((date_trunc('second', p_at) + v * interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
      ELSE cur := cur + (b - 246); last_move := b - 246;
      END IF;
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "packed" "bytea";--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "later_advance" boolean;--> statement-breakpoint
ALTER TABLE "progress_reports" ADD COLUMN "last_move" bigint;--> statement-breakpoint
-- 0025's runs, packed: each later report's offset byte, and its cursor from its step (one occurrence a run then;
-- no last move, so no `again` codes: their last_move stays null).
UPDATE progress_reports r SET later_advance = CASE WHEN cardinality(r.steps) > 0 THEN true END,
  packed = (SELECT leaseboard_run_pack(r.lease, r.reported_at, g.off, r.occurrence, r.occurrence, g.prev_cursor, g.cur, NULL ORDER BY g.k)
            FROM (SELECT h.k, h.off, h.cur, lag(h.cur, 1, r.cursor) OVER (ORDER BY h.k) AS prev_cursor
                  FROM (SELECT g.k, get_byte(r.offsets, g.k - 1) - 128 AS off,
                               (CASE WHEN COALESCE(max(st.j) OVER (ORDER BY g.k), 0) = 0 THEN r.cursor
                                     ELSE r.step_cursors[max(st.j) OVER (ORDER BY g.k)] END) AS cur
                        FROM generate_series(1, length(r.offsets)) g(k)
                        LEFT JOIN unnest(r.steps) WITH ORDINALITY st(step_k, j) ON st.step_k = g.k) h) g)
WHERE r.offsets IS NOT NULL;--> statement-breakpoint
ALTER TABLE "progress_reports" DROP COLUMN "offsets";--> statement-breakpoint
ALTER TABLE "progress_reports" DROP COLUMN "steps";--> statement-breakpoint
ALTER TABLE "progress_reports" DROP COLUMN "step_cursors";--> statement-breakpoint
-- Report progress: 0027_rejudge_only_changes's body (the lock order, the summary and its stamps unchanged),
-- but the open run is extended across cursor moves and occurrence changes (leaseboard_run_append).
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
           prev.last_report_at AS break_from, prev.epoch AS prev_epoch, prev.last_seq AS prev_seq,
           prev.in_flight AS prev_occurrence, prev.cursor AS prev_cursor
    FROM c LEFT JOIN prev ON true
  ),
  open_run AS (
    SELECT o.id, o.reported_at, COALESCE(o.last_seq, o.seq) AS last_seq,
           (extract(epoch FROM r.now - COALESCE(o.last_at, o.reported_at)) * 1000)::int - o.report_every_ms AS quiet_offset
    FROM r CROSS JOIN LATERAL (SELECT o.* FROM progress_reports o WHERE o.lease = r.lease AND o.epoch = r.epoch
                               ORDER BY o.reported_at DESC, o.id DESC LIMIT 1) o
    -- The run ends on the summary's own last report, so the summary's in_flight and cursor are its last report's.
    WHERE r.prev_epoch = r.epoch AND COALESCE(o.last_seq, o.seq) = r.prev_seq AND COALESCE(o.last_at, o.reported_at) = r.break_from
      AND o.report_every_ms = r.every
      AND (CASE WHEN r.seq <> COALESCE(o.last_seq, o.seq) + 1 THEN 'lost_reports'
      WHEN r.now - COALESCE(o.last_at, o.reported_at) > 3 * (o.report_every_ms) * interval '1 millisecond' THEN 'silence' END) IS NULL
      AND COALESCE(o.last_seq, o.seq) - o.seq < 1799 AND r.now - o.reported_at < interval '1 hour'
      AND COALESCE(length(o.packed), 0) < 1600
      AND (r.cursor IS NULL OR r.cursor BETWEEN -2305843009213693951 AND 2305843009213693951)
      AND (r.prev_cursor IS NULL OR r.prev_cursor BETWEEN -2305843009213693951 AND 2305843009213693951)
      AND EXISTS (SELECT 1 FROM report_partitions p WHERE p."from" <= o.reported_at AND o.reported_at < p."to" AND r.now < p."to")
  ),
  extended AS (
    UPDATE progress_reports o SET last_seq = r.seq, last_at = r.now,
           packed = leaseboard_run_append(o.packed, r.lease, o.reported_at, open_run.quiet_offset, r.prev_occurrence, r.occurrence,
                                           r.prev_cursor, r.cursor, o.last_move),
           last_move = CASE WHEN r.cursor <> r.prev_cursor THEN r.cursor - r.prev_cursor ELSE o.last_move END,
           later_advance = CASE WHEN r.advanced THEN true ELSE o.later_advance END
    FROM open_run, r
    WHERE o.id = open_run.id AND o.reported_at = open_run.reported_at AND COALESCE(o.last_seq, o.seq) = open_run.last_seq
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

-- Bounded: one row per lease and UTC day of folded events; the pruner deletes a day once all of it, and a later
-- event of its lease, is past LEASEBOARD_RETAIN_LEASE_EVENTS (30 days by default): at most 31 rows per lease.
-- Lease events a day to a row (issue 21): a row per grant or release (228 bytes with its indexes: 1.5 GB
-- for 10,000 schedulers at an assumed 24 a day over 30 days) becomes, for the days that are over, one
-- row per lease and UTC day. Its events are six numbers each in nums (event i is nums[i][1:6]: id;
-- µs after the day × 4 + kind (0 acquired, 1 taken_over, 2 released); epoch; previous epoch; µs
-- from the previous tenure's end to the event; µs from the last renewal to the event — the last three
-- null when the row's were), and their holders and labels joined by the unit separator (U+001F; a null
-- label is U+001E). Only the logs read behind `?at=` and history, the recent read (RECENT_SQL) and
-- history's first-event time read old events, all through leaseboard_lease_log below; none reads
-- previous_holder, which is not kept. An event with a holder or label a join cannot say (empty, or
-- holding either separator) is never folded.
-- Guarantees: the pruner folds in ONE statement per batch (deleted from lease_events, merged into their
-- day), fenced like every prune (leaseboard_fence first; lease_events' delete trigger checks it again);
-- a day is folded once it has been over for an hour, so an event committed late still lands in a row
-- first and is merged into its day at the next round. The pruner keeps each lease's newest event at or
-- before the retention cutoff, row or day (lib/jobs/retention-pruner/victims.ts).
CREATE TABLE "lease_event_days" (
	"lease" text NOT NULL,
	"day" timestamp(6) with time zone NOT NULL,
	"nums" bigint[] NOT NULL,
	"holders" text NOT NULL,
	"labels" text NOT NULL,
	CONSTRAINT "lease_event_days_lease_day_pk" PRIMARY KEY("lease","day")
);
--> statement-breakpoint
CREATE INDEX "lease_event_days_day" ON "lease_event_days" USING btree ("day");--> statement-breakpoint
SELECT leaseboard_fence_deletes('lease_event_days');--> statement-breakpoint

-- A lease's events, rows and folded days alike, in the columns the readers take (p_until: days that
-- start after it are not unpacked).
CREATE FUNCTION leaseboard_lease_log(p_lease text, p_until timestamptz)
RETURNS TABLE (id bigint, kind text, epoch bigint, holder text, holder_label text, at timestamptz,
               previous_epoch bigint, previous_ended_at timestamptz, last_renewed_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT e.id, e.kind, e.epoch, e.holder, e.holder_label, e.at, e.previous_epoch, e.previous_ended_at, e.last_renewed_at
  FROM lease_events e WHERE e.lease = p_lease AND e.at <= p_until
  UNION ALL
  SELECT d.nums[i][1], (ARRAY['acquired', 'taken_over', 'released'])[d.nums[i][2] % 4 + 1], d.nums[i][3],
         h.holders[i], b.labels[i], u.at, d.nums[i][4],
         u.at - d.nums[i][5] * interval '1 microsecond', u.at - d.nums[i][6] * interval '1 microsecond'
  FROM lease_event_days d
  CROSS JOIN LATERAL (SELECT string_to_array(d.holders, E'\x1f') AS holders) h
  CROSS JOIN LATERAL (SELECT string_to_array(d.labels, E'\x1f', E'\x1e') AS labels) b
  CROSS JOIN LATERAL generate_series(1, array_length(d.nums, 1)) i
  CROSS JOIN LATERAL (SELECT d.day + (d.nums[i][2] / 4) * interval '1 microsecond' AS at) u
  WHERE d.lease = p_lease AND d.day <= p_until AND u.at <= p_until
$$;
--> statement-breakpoint

-- The events a fold may take now (row_ctid: which row).
CREATE VIEW lease_events_foldable AS
SELECT e.ctid AS row_ctid FROM lease_events e
WHERE e.at < date_trunc('day', now() - interval '1 hour', 'UTC')
  AND e.holder <> '' AND strpos(e.holder, E'\x1f') = 0 AND strpos(e.holder, E'\x1e') = 0
  AND (e.holder_label IS NULL OR (e.holder_label <> '' AND strpos(e.holder_label, E'\x1f') = 0 AND strpos(e.holder_label, E'\x1e') = 0));
--> statement-breakpoint

CREATE FUNCTION leaseboard_fold_lease_events(p_lease text, p_epoch bigint, p_batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'lease_events');
  WITH moved AS (
    DELETE FROM lease_events e WHERE e.ctid = ANY (ARRAY(SELECT f.row_ctid FROM lease_events_foldable f LIMIT p_batch))
    RETURNING e.id, e.lease, e.kind, e.epoch, e.holder, e.holder_label, e.at, e.previous_epoch, e.previous_ended_at,
              e.last_renewed_at, date_trunc('day', e.at, 'UTC') AS day
  ), packed AS (
    SELECT m.lease, m.day,
           array_agg(ARRAY[m.id,
                           (extract(epoch FROM m.at - m.day) * 1000000)::bigint * 4 + array_position(ARRAY['acquired', 'taken_over', 'released'], m.kind) - 1,
                           m.epoch, m.previous_epoch,
                           (extract(epoch FROM m.at - m.previous_ended_at) * 1000000)::bigint,
                           (extract(epoch FROM m.at - m.last_renewed_at) * 1000000)::bigint] ORDER BY m.at, m.id) AS nums,
           string_agg(m.holder, E'\x1f' ORDER BY m.at, m.id) AS holders,
           string_agg(COALESCE(m.holder_label, E'\x1e'), E'\x1f' ORDER BY m.at, m.id) AS labels,
           count(*) AS n
    FROM moved m GROUP BY m.lease, m.day
  ), merged AS (
    INSERT INTO lease_event_days AS d (lease, day, nums, holders, labels)
    SELECT lease, day, nums, holders, labels FROM packed
    ON CONFLICT (lease, day) DO UPDATE
      SET nums = d.nums || excluded.nums, holders = d.holders || E'\x1f' || excluded.holders,
          labels = d.labels || E'\x1f' || excluded.labels
  )
  SELECT coalesce(sum(n), 0)::int INTO folded FROM packed;
  RETURN folded;
END $$;

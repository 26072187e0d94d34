-- Bounded: one row per lease and UTC hour of folded occurrences; the pruner deletes an hour once all of it is past
-- LEASEBOARD_RETAIN_OCCURRENCES (7 days by default): at most 24 × 8 rows per lease.
-- Occurrences an hour to a row (issue 21): one 333-byte row per occurrence (288 a day for a 5-minute
-- cadence, 6.3 GB for 10,000 schedulers over 7 days) is more than anyone reads of an old one. The
-- live read and the last run read only a lease's newest occurrence and its newest ended one; `?at=`
-- and history read, for an instant t, the newest occurrence claimed by t: its key, its slot, and
-- whether it had ended by t (lib/server/asof/logs-sql.ts). So the pruner folds an occurrence once a
-- newer one of its lease has ended (it is then neither of the two the live read takes) and its hour
-- ended an hour ago, into its lease's row for that UTC hour: slot i of the arrays is one occurrence,
-- scheduled scheduled_ms[i] ms after the hour, claimed claimed_us[i] µs after its slot, ended
-- ended_us[i] µs after its claim (NULL: it never ended — abandoned). Its key is the slot's
-- (lib/lease/occurrence-key.ts), its state, epoch, step and cursor nobody reads once it is old.
-- Only what comes back exactly is folded: a key that is its slot's, a slot on a whole millisecond,
-- a claim at or after the slot, and no plan items naming it (they go first). Anything else stays a
-- row and is pruned as before.
-- Guarantees: a fold moves rows in ONE statement (deleted from occurrences, merged into their hour),
-- fenced like every prune (leaseboard_fence first; the delete trigger checks it again).
CREATE TABLE "occurrence_hours" (
	"lease" text NOT NULL,
	"hour" timestamp(6) with time zone NOT NULL,
	"scheduled_ms" integer[] NOT NULL,
	"claimed_us" bigint[] NOT NULL,
	"ended_us" bigint[] NOT NULL,
	CONSTRAINT "occurrence_hours_lease_hour_pk" PRIMARY KEY("lease","hour")
);
--> statement-breakpoint
CREATE INDEX "occurrence_hours_hour" ON "occurrence_hours" USING btree ("hour");--> statement-breakpoint
ALTER TABLE "occurrence_hours" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
SELECT leaseboard_fence_deletes('occurrence_hours');--> statement-breakpoint

-- The occurrences a fold may take now (row_ctid: which row).
CREATE VIEW occurrences_foldable AS
SELECT o.ctid AS row_ctid, o.lease, o.scheduled_at, o.claimed_at, o.completed_at
FROM occurrences o
WHERE o.scheduled_at < date_trunc('hour', now(), 'UTC') - interval '1 hour'
  AND o.key = o.lease || '@' || to_char(o.scheduled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  AND date_trunc('milliseconds', o.scheduled_at) = o.scheduled_at
  AND o.claimed_at >= o.scheduled_at
  AND EXISTS (SELECT 1 FROM occurrences n WHERE n.lease = o.lease AND n.scheduled_at > o.scheduled_at AND n.state <> 'running')
  AND NOT EXISTS (SELECT 1 FROM plan_items p WHERE p.occurrence = o.key);
--> statement-breakpoint

CREATE FUNCTION leaseboard_fold_occurrences(p_lease text, p_epoch bigint, p_batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'occurrences');
  WITH moved AS (
    DELETE FROM occurrences o WHERE o.ctid = ANY (ARRAY(SELECT f.row_ctid FROM occurrences_foldable f LIMIT p_batch))
    RETURNING o.lease, leaseboard_gap_hour(o.scheduled_at) AS hour, o.scheduled_at, o.claimed_at, o.completed_at
  ), packed AS (
    SELECT lease, hour,
           array_agg((extract(epoch FROM scheduled_at - hour) * 1000)::int ORDER BY scheduled_at) AS scheduled_ms,
           array_agg((extract(epoch FROM claimed_at - scheduled_at) * 1000000)::bigint ORDER BY scheduled_at) AS claimed_us,
           array_agg((extract(epoch FROM completed_at - claimed_at) * 1000000)::bigint ORDER BY scheduled_at) AS ended_us,
           count(*) AS n
    FROM moved GROUP BY lease, hour
  ), merged AS (
    INSERT INTO occurrence_hours AS h (lease, hour, scheduled_ms, claimed_us, ended_us)
    SELECT lease, hour, scheduled_ms, claimed_us, ended_us FROM packed
    ON CONFLICT (lease, hour) DO UPDATE
      SET scheduled_ms = h.scheduled_ms || excluded.scheduled_ms,
          claimed_us = h.claimed_us || excluded.claimed_us,
          ended_us = h.ended_us || excluded.ended_us
  )
  SELECT coalesce(sum(n), 0)::int INTO folded FROM packed;
  RETURN folded;
END $$;

-- Bounded: one row per lease, epoch and UTC hour held; the pruner (lib/jobs/retention-pruner/victims.ts) deletes an
-- hour once its last minute is past LEASEBOARD_RETAIN_RENEWALS (7 days by default): at most 24 × 8 rows per lease.
-- Renewal history an hour to a row (issue 21): the minute rollup of migration
-- 0001 (one 166-byte row per lease per minute held, 16 GB for 10,000 leases
-- over 7 days) becomes one row per lease, epoch and UTC hour whose
-- max_gap_ms[i] is what the minute row for minute i − 1 of that hour said
-- (NULL: no renewal closed that minute for that epoch), and renewals the
-- renewals of all its minutes. The open minute still lives on the lease row
-- (gap_bucket, written by the renewal itself); the trigger that flushes a
-- closed bucket now merges it into its hour's row, exactly as it merged into
-- the minute row (GREATEST of the gaps, sum of the renewals), so the minutes
-- an hour row stands for are the minute rows, one for one.
-- The hour is UTC (date_trunc with a zone): the session's TimeZone never
-- moves a minute to another row.
CREATE TABLE "renewal_gap_hours" (
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	"hour" timestamp(6) with time zone NOT NULL,
	"max_gap_ms" integer[] NOT NULL,
	"renewals" integer NOT NULL,
	CONSTRAINT "renewal_gap_hours_lease_hour_epoch_pk" PRIMARY KEY("lease","hour","epoch")
);
--> statement-breakpoint
CREATE INDEX "renewal_gap_hours_hour" ON "renewal_gap_hours" USING btree ("hour");--> statement-breakpoint
ALTER TABLE "renewal_gap_hours" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
SELECT leaseboard_fence_deletes('renewal_gap_hours');--> statement-breakpoint

-- The hour row a minute belongs to, and the minute's place in it (1–60).
CREATE FUNCTION leaseboard_gap_hour(minute timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT date_trunc('hour', minute, 'UTC') $$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_gap_slot(minute timestamptz) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT floor(extract(epoch FROM minute - date_trunc('hour', minute, 'UTC')) / 60)::int + 1 $$;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION leaseboard_flush_renewal_gap() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  slot int := leaseboard_gap_slot(OLD.gap_bucket);
  gaps int[] := array_fill(NULL::int, ARRAY[60]);
BEGIN
  gaps[slot] := OLD.gap_bucket_max_ms;
  INSERT INTO renewal_gap_hours AS h (lease, epoch, hour, max_gap_ms, renewals)
  VALUES (OLD.name, OLD.epoch, leaseboard_gap_hour(OLD.gap_bucket), gaps, OLD.gap_bucket_renewals)
  ON CONFLICT (lease, hour, epoch) DO UPDATE
    SET max_gap_ms[slot] = GREATEST(h.max_gap_ms[slot], excluded.max_gap_ms[slot]),
        renewals = h.renewals + excluded.renewals;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- The minute rows written so far, folded into their hours.
INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals)
SELECT k.lease, k.epoch, k.hour,
       ARRAY(SELECT max(g.max_gap_ms) FROM generate_series(1, 60) i
             LEFT JOIN renewal_gaps g ON g.lease = k.lease AND g.epoch = k.epoch
               AND g.minute >= k.hour + (i - 1) * interval '1 minute' AND g.minute < k.hour + i * interval '1 minute'
             GROUP BY i ORDER BY i),
       k.renewals
FROM (SELECT lease, epoch, leaseboard_gap_hour(minute) AS hour, sum(renewals)::int AS renewals
      FROM renewal_gaps GROUP BY 1, 2, 3) k;
--> statement-breakpoint
DROP TABLE "renewal_gaps";

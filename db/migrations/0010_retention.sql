-- Retention (lib/retention, the pruner job lib/jobs/retention-pruner).
--
-- progress_reports becomes a table partitioned by reported_at: partitions [from, to) of the
-- configured width (a day by default), listed in report_partitions, created ahead and dropped
-- whole past retention by leaseboard_retention_partitions — fenced: it checks the caller's lease
-- and epoch (leaseboard_fence) before it changes anything, since no trigger can fence DDL.
-- A default partition catches what falls outside every partition (backdated rows, a pruner that
-- was down): the next partition made for that range takes its rows over, and rows past retention
-- there are deleted in bounded batches.
-- Every pruned log refuses a DELETE or TRUNCATE without a current fence in its transaction
-- (leaseboard_fence_deletes, migration 0004): only a holder of a lease prunes.
-- Time indexes let each batch find its rows without a scan; pruned tables get autovacuum early,
-- so the space a batch frees is reused before the table grows.
-- Not guaranteed: a partition is dropped only once its whole range is past retention (a report is
-- kept up to one partition width longer), and a partition is made or dropped only when its lock
-- comes within 200 ms (else `busy`: the next round tries again; reports of a range with no
-- partition wait in the default partition meanwhile).

ALTER TABLE "progress_reports" RENAME TO "progress_reports_unpartitioned";--> statement-breakpoint
ALTER TABLE "progress_reports_unpartitioned" RENAME CONSTRAINT "progress_reports_pkey" TO "progress_reports_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "progress_reports_lease_epoch_at" RENAME TO "progress_reports_unpartitioned_lease_epoch_at";--> statement-breakpoint
CREATE TABLE "progress_reports" (
	"id" bigint DEFAULT nextval('progress_reports_id_seq') NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	"seq" integer NOT NULL,
	"occurrence" text,
	"cursor" bigint,
	"advanced" boolean NOT NULL,
	"reported_at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "progress_reports_id_reported_at_pk" PRIMARY KEY("id","reported_at")
) PARTITION BY RANGE ("reported_at");--> statement-breakpoint
ALTER SEQUENCE "progress_reports_id_seq" OWNED BY "progress_reports"."id";--> statement-breakpoint
CREATE INDEX "progress_reports_lease_epoch_at" ON "progress_reports" USING btree ("lease","epoch","reported_at");--> statement-breakpoint
CREATE TABLE "progress_reports_default" PARTITION OF "progress_reports" DEFAULT;--> statement-breakpoint
CREATE TABLE "report_partitions" (
	"name" text PRIMARY KEY NOT NULL,
	"from" timestamp(6) with time zone NOT NULL,
	"to" timestamp(6) with time zone NOT NULL
);--> statement-breakpoint

-- Makes the partition [p_from, p_to) unless some partition already covers part of it (then that
-- range stays where it is). Rows of the range waiting in the default partition move into it.
-- Returns whether it made one. Not fenced: it never removes data (the pruner and this migration call it).
CREATE FUNCTION leaseboard_report_partition(p_from timestamptz, p_to timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  part text := 'progress_reports_p' || to_char(p_from AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MISS');
BEGIN
  IF EXISTS (SELECT 1 FROM report_partitions r WHERE r."from" < p_to AND r."to" > p_from) THEN
    RETURN false;
  END IF;
  IF EXISTS (SELECT 1 FROM progress_reports_default WHERE reported_at >= p_from AND reported_at < p_to) THEN
    EXECUTE format('CREATE TABLE %I (LIKE progress_reports INCLUDING DEFAULTS)', part);
    EXECUTE format('WITH moved AS (DELETE FROM progress_reports_default WHERE reported_at >= $1 AND reported_at < $2 RETURNING *)
                    INSERT INTO %I SELECT * FROM moved', part) USING p_from, p_to;
    EXECUTE format('ALTER TABLE progress_reports ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, p_from, p_to);
  ELSE
    EXECUTE format('CREATE TABLE %I PARTITION OF progress_reports FOR VALUES FROM (%L) TO (%L)', part, p_from, p_to);
  END IF;
  INSERT INTO report_partitions (name, "from", "to") VALUES (part, p_from, p_to);
  RETURN true;
END $$;
--> statement-breakpoint

-- The pruner's partition round, fenced: the caller's (lease, epoch) is checked first (LB001 when
-- stale, and the lease row stays share-locked to the commit, as for every fenced write).
-- Creates the partitions from the one holding p_now through p_now + p_ahead, drops those wholly
-- before p_now - p_keep (at most 50 per call), deletes up to p_batch default-partition rows past
-- retention. p_now is the caller's database time (injectable for tests).
CREATE FUNCTION leaseboard_retention_partitions(p_lease text, p_epoch bigint, p_now timestamptz, p_ahead interval,
                                                p_keep interval, p_width interval, p_batch integer) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  origin constant timestamptz := '2000-01-01 00:00:00+00';
  slot timestamptz := date_bin(p_width, p_now, origin);
  cutoff timestamptz := p_now - p_keep;
  created integer := 0;
  dropped integer := 0;
  busy integer := 0;
  default_pruned integer := 0;
  r record;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'progress_reports');
  PERFORM set_config('lock_timeout', '200ms', true);
  WHILE slot < p_now + p_ahead LOOP
    BEGIN
      IF leaseboard_report_partition(slot, slot + p_width) THEN created := created + 1; END IF;
    EXCEPTION WHEN lock_not_available THEN
      busy := busy + 1;
    END;
    slot := slot + p_width;
  END LOOP;
  FOR r IN SELECT name FROM report_partitions WHERE "to" <= cutoff ORDER BY "to" LIMIT 50 LOOP
    BEGIN
      EXECUTE format('DROP TABLE %I', r.name);
      DELETE FROM report_partitions WHERE name = r.name;
      dropped := dropped + 1;
    EXCEPTION WHEN lock_not_available THEN
      busy := busy + 1;
    END;
  END LOOP;
  DELETE FROM progress_reports_default WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM progress_reports_default WHERE reported_at < cutoff LIMIT p_batch));
  GET DIAGNOSTICS default_pruned = ROW_COUNT;
  RETURN json_build_object('created', created, 'dropped', dropped, 'busy', busy, 'defaultPruned', default_pruned,
                           'oldest', (SELECT min("from") FROM report_partitions));
END $$;
--> statement-breakpoint

-- Day partitions for the reports already there (none on a fresh database): the pruner makes the
-- ones ahead at the configured width on its first round (until then reports wait in the default
-- partition, and move into their partition when it is made).
DO $$
DECLARE
  day timestamptz := date_bin('1 day', (SELECT min(reported_at) FROM progress_reports_unpartitioned), '2000-01-01 00:00:00+00');
  last timestamptz := (SELECT max(reported_at) FROM progress_reports_unpartitioned);
BEGIN
  WHILE day <= last LOOP
    PERFORM leaseboard_report_partition(day, day + interval '1 day');
    day := day + interval '1 day';
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "progress_reports" SELECT "id", "lease", "epoch", "seq", "occurrence", "cursor", "advanced", "reported_at" FROM "progress_reports_unpartitioned";--> statement-breakpoint
DROP TABLE "progress_reports_unpartitioned";--> statement-breakpoint

SELECT leaseboard_fence_deletes('progress_reports');--> statement-breakpoint
SELECT leaseboard_fence_deletes('lease_events');--> statement-breakpoint
SELECT leaseboard_fence_deletes('renewal_gaps');--> statement-breakpoint
SELECT leaseboard_fence_deletes('stale_write_rejections');--> statement-breakpoint

CREATE INDEX "lease_events_at" ON "lease_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "occurrences_scheduled_at" ON "occurrences" USING btree ("scheduled_at");--> statement-breakpoint
CREATE INDEX "renewal_gaps_minute" ON "renewal_gaps" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "stale_write_rejections_at" ON "stale_write_rejections" USING btree ("at");--> statement-breakpoint

ALTER TABLE "plan_items" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "occurrences" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "lease_events" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "renewal_gaps" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "stale_write_rejections" SET (autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "alert_events" SET (autovacuum_vacuum_scale_factor = 0.02);

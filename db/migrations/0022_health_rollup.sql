-- The health rollup behind the overview's strips (lib/server/strips, written by the alert evaluator,
-- lib/jobs/alert-evaluator/write.ts) and the instant each scheduler first registered.
--
-- Tables:
--   health_changes           one row per (scheduler, instant) the evaluator saw its health change; fenced
--                            (the evaluator's lease and epoch); pruned past the reports' retention, keeping
--                            each existing scheduler's newest row at the cutoff.
--   health_observed_minutes  one row per minute in which the evaluator ran a round; fenced; pruned likewise.
--   schedulers.first_registered_at  kept by every later registration (history never starts before it);
--                            existing rows take their registered_at, the oldest instant known.
CREATE TABLE "health_changes" (
	"name" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	"health" text NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	-- INCLUDE (health): the strips read (per scheduler: the newest row before a window, the rows inside it)
	-- is an index-only scan once autovacuum (insert-triggered) has marked the pages visible.
	CONSTRAINT "health_changes_name_at_pk" PRIMARY KEY("name","at") INCLUDE ("health"),
	CONSTRAINT "health_changes_health" CHECK ("health" IN ('stalled', 'no_leader', 'unknown', 'disabled', 'idle', 'progressing'))
);
--> statement-breakpoint
CREATE TABLE "health_observed_minutes" (
	"minute" timestamp(6) with time zone PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedulers" ADD COLUMN "first_registered_at" timestamp(6) with time zone DEFAULT clock_timestamp() NOT NULL;--> statement-breakpoint
UPDATE "schedulers" SET "first_registered_at" = "registered_at";--> statement-breakpoint
CREATE INDEX "health_changes_at" ON "health_changes" USING btree ("at");--> statement-breakpoint
SELECT leaseboard_fence_table('health_changes');--> statement-breakpoint
SELECT leaseboard_fence_table('health_observed_minutes');
--> statement-breakpoint
-- Registration keeps the first instant too: one clock reading for both (lib/scheduler/registration.ts calls this).
CREATE OR REPLACE FUNCTION leaseboard_register(p_name text, p_every_ms int, p_report_every_ms int, p_stall_after_ms int, p_overdue_after_ms int)
RETURNS void
LANGUAGE sql VOLATILE AS $fn$
WITH c AS (SELECT clock_timestamp() AS now)
INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at)
SELECT $1, $2, $3, $4, $5, c.now, c.now FROM c
ON CONFLICT (name) DO UPDATE SET every_ms = excluded.every_ms, report_every_ms = excluded.report_every_ms,
  stall_after_ms = excluded.stall_after_ms, overdue_after_ms = excluded.overdue_after_ms, registered_at = excluded.registered_at
$fn$;

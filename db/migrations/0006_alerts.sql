-- Alerts (lib/alerts, the evaluator job lib/jobs/alert-evaluator). How each table is bounded:
--   alert_state      current state, one row per rule x scheduler at most (fixed size); fenced.
--   alert_events     state transitions (history), indexed by `at`: its retention is plugged into the
--                    retention pruner (leaseboard-retention, lib/retention — issue 9, built in
--                    parallel), which deletes by `at` under its own fence (DELETEs on a fenced table
--                    need a current fence in the transaction, any lease's). Fenced inserts.
--   alert_modes      operator intent, rules x (schedulers + 1) at most (fixed size).
--   alert_mode_audit every mode change: an audit trail, never pruned (like intent_audit).
--   alert_delivery   one row per configured Alertmanager (at most 10); fenced.
-- Only an operator writes alert_modes / alert_mode_audit; only the evaluator (under its lease) the rest.
CREATE TABLE "alert_delivery" (
	"target" text PRIMARY KEY NOT NULL,
	"queue_depth" integer NOT NULL,
	"in_flight" integer NOT NULL,
	"consecutive_failures" integer NOT NULL,
	"last_error" text,
	"last_success_age_ms" bigint,
	"last_failure_age_ms" bigint,
	"next_attempt_in_ms" bigint,
	"sent_alerts" bigint NOT NULL,
	"failed_attempts" bigint NOT NULL,
	"rejected_alerts" bigint NOT NULL,
	"dropped_alerts" bigint NOT NULL,
	"observed_at" timestamp(6) with time zone NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule" text NOT NULL,
	"scheduler" text,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	"mode" text NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_mode_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule" text NOT NULL,
	"scheduler" text,
	"from_mode" text,
	"from_effective" text NOT NULL,
	"to_mode" text NOT NULL,
	"by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_modes" (
	"rule" text NOT NULL,
	"scheduler" text,
	"mode" text NOT NULL,
	"by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "alert_modes_rule_scheduler" UNIQUE NULLS NOT DISTINCT("rule","scheduler")
);
--> statement-breakpoint
CREATE TABLE "alert_state" (
	"rule" text NOT NULL,
	"scheduler" text,
	"state" text NOT NULL,
	"active_at" timestamp(6) with time zone,
	"fired_at" timestamp(6) with time zone,
	"keep_firing_since" timestamp(6) with time zone,
	"resolved_at" timestamp(6) with time zone,
	"summary" text,
	"sent_at" timestamp(6) with time zone,
	"sent_as" text,
	"delivered_sent_at" timestamp(6) with time zone,
	"updated_at" timestamp(6) with time zone NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	CONSTRAINT "alert_state_rule_scheduler" UNIQUE NULLS NOT DISTINCT("rule","scheduler")
);
--> statement-breakpoint
CREATE INDEX "alert_events_at" ON "alert_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "alert_events_scheduler_at" ON "alert_events" USING btree ("scheduler","at");--> statement-breakpoint
CREATE INDEX "alert_mode_audit_at" ON "alert_mode_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "alert_mode_audit_scheduler_at" ON "alert_mode_audit" USING btree ("scheduler","at");--> statement-breakpoint
SELECT leaseboard_fence_table('alert_state');--> statement-breakpoint
SELECT leaseboard_fence_table('alert_events');--> statement-breakpoint
SELECT leaseboard_fence_table('alert_delivery');

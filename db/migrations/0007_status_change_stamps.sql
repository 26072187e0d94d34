-- The status service's incremental read (lib/server/live/facts-sql.ts): every row it reads
-- carries `change_xid`, the transaction that last changed what the read uses (inserts: the
-- default; updates: the writer stamps it, or the triggers of the next migration do). Indexed
-- where rows change rarely; leases and progress_summaries, updated by every holder every few
-- seconds, are scanned instead so their updates stay HOT (no index on a changing column).
-- Deleted rows leave one tombstone per name in status_deletions; a TRUNCATE marks
-- status_resets (read all again). Both are bounded: one row per name ever used, and one row.
CREATE TABLE "status_deletions" (
	"name" text PRIMARY KEY NOT NULL,
	"change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_resets" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "status_resets_one_row" CHECK ("status_resets"."id")
);
--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "occurrences" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "progress_summaries" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "scheduler_intents" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "schedulers" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "status_deletions_change_xid" ON "status_deletions" USING btree ("change_xid");--> statement-breakpoint
CREATE INDEX "occurrences_change_xid" ON "occurrences" USING btree ("change_xid");--> statement-breakpoint
CREATE INDEX "scheduler_intents_change_xid" ON "scheduler_intents" USING btree ("change_xid");--> statement-breakpoint
CREATE INDEX "schedulers_change_xid" ON "schedulers" USING btree ("change_xid");
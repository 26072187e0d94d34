-- Rows of a fenced table carry the lease and epoch that wrote them (lib/lease/fence.ts).
-- plan_items gains `lease` (backfilled from its occurrence key, `lease@instant`, for a
-- database that already has rows); occurrences already carry both and gain `step`,
-- the job step in flight, so a resumed occurrence continues where it stopped.
ALTER TABLE "occurrences" ADD COLUMN "step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_items" ADD COLUMN "lease" text;--> statement-breakpoint
UPDATE "plan_items" SET "lease" = split_part("occurrence", '@', 1);--> statement-breakpoint
ALTER TABLE "plan_items" ALTER COLUMN "lease" SET NOT NULL;

ALTER TABLE "stale_write_rejections" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "stale_write_rejections_change_xid" ON "stale_write_rejections" USING btree ("change_xid");--> statement-breakpoint
-- A new rejection changes its lease's alert evidence (StaleWritesRejected): the incremental
-- read (lib/server/live/facts-sql.ts) finds it by this stamp. Rows are only inserted (the
-- default stamps them) or pruned: a pruned rejection leaves a tombstone for its lease, and
-- a TRUNCATE makes the next read a full one, as for the other tables the status reads.
CREATE TRIGGER stale_write_rejections_tombstones AFTER DELETE ON stale_write_rejections REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_lease();
--> statement-breakpoint
CREATE TRIGGER stale_write_rejections_status_reset AFTER TRUNCATE ON stale_write_rejections
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();

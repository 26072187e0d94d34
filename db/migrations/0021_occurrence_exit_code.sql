ALTER TABLE "occurrences" ADD COLUMN "exit_code" integer;--> statement-breakpoint
-- The last run (lib/status/last-run.ts) reads the newest occurrence's epoch: a resume by a new
-- epoch (the claim rewrites it) is a change the status reads, so it is stamped too. The exit
-- code is written with the state change, which was stamped already. Cursor moves still are not.
DROP TRIGGER occurrences_stamp_change ON occurrences;--> statement-breakpoint
CREATE TRIGGER occurrences_stamp_change BEFORE UPDATE ON occurrences FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid
        AND (OLD.key, OLD.lease, OLD.scheduled_at, OLD.state, OLD.epoch) IS DISTINCT FROM (NEW.key, NEW.lease, NEW.scheduled_at, NEW.state, NEW.epoch))
  EXECUTE FUNCTION leaseboard_stamp_change();

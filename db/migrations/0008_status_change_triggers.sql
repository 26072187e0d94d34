-- Change stamps for writers that do not set change_xid themselves (plain SQL, drizzle
-- updates, tests): a BEFORE UPDATE trigger stamps the row, filtered by WHEN so the
-- library's own statements, which stamp themselves (renewals, reports), never pay for
-- a function call. occurrences are stamped only when what the status reads changes
-- (key, lease, scheduled_at, state), not on every cursor move. Deletions leave a
-- tombstone per name (one statement-level trigger per table); TRUNCATE marks a reset.
-- leases and progress_summaries get fillfactor 80: room on each page for the next version
-- of a row, so a renewal or a report is a HOT update that writes no index.
-- Not guaranteed: writers that disable triggers (session_replication_role = replica).
ALTER TABLE leases SET (fillfactor = 80);
--> statement-breakpoint
ALTER TABLE progress_summaries SET (fillfactor = 80);
--> statement-breakpoint
CREATE FUNCTION leaseboard_stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_tombstones_by_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO status_deletions (name, change_xid) SELECT DISTINCT g.name, pg_current_xact_id() FROM gone g
  ON CONFLICT (name) DO UPDATE SET change_xid = excluded.change_xid;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_tombstones_by_lease() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO status_deletions (name, change_xid) SELECT DISTINCT g.lease, pg_current_xact_id() FROM gone g
  ON CONFLICT (name) DO UPDATE SET change_xid = excluded.change_xid;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_status_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO status_resets (id, change_xid) VALUES (true, pg_current_xact_id())
  ON CONFLICT (id) DO UPDATE SET change_xid = excluded.change_xid;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leases_stamp_change BEFORE UPDATE ON leases FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid) EXECUTE FUNCTION leaseboard_stamp_change();
--> statement-breakpoint
CREATE TRIGGER schedulers_stamp_change BEFORE UPDATE ON schedulers FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid) EXECUTE FUNCTION leaseboard_stamp_change();
--> statement-breakpoint
CREATE TRIGGER scheduler_intents_stamp_change BEFORE UPDATE ON scheduler_intents FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid) EXECUTE FUNCTION leaseboard_stamp_change();
--> statement-breakpoint
CREATE TRIGGER progress_summaries_stamp_change BEFORE UPDATE ON progress_summaries FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid) EXECUTE FUNCTION leaseboard_stamp_change();
--> statement-breakpoint
CREATE TRIGGER occurrences_stamp_change BEFORE UPDATE ON occurrences FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid
        AND (OLD.key, OLD.lease, OLD.scheduled_at, OLD.state) IS DISTINCT FROM (NEW.key, NEW.lease, NEW.scheduled_at, NEW.state))
  EXECUTE FUNCTION leaseboard_stamp_change();
--> statement-breakpoint
CREATE TRIGGER leases_tombstones AFTER DELETE ON leases REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_name();
--> statement-breakpoint
CREATE TRIGGER schedulers_tombstones AFTER DELETE ON schedulers REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_name();
--> statement-breakpoint
CREATE TRIGGER scheduler_intents_tombstones AFTER DELETE ON scheduler_intents REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_lease();
--> statement-breakpoint
CREATE TRIGGER progress_summaries_tombstones AFTER DELETE ON progress_summaries REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_lease();
--> statement-breakpoint
CREATE TRIGGER occurrences_tombstones AFTER DELETE ON occurrences REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_lease();
--> statement-breakpoint
CREATE TRIGGER leases_status_reset AFTER TRUNCATE ON leases FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();
--> statement-breakpoint
CREATE TRIGGER schedulers_status_reset AFTER TRUNCATE ON schedulers FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();
--> statement-breakpoint
CREATE TRIGGER scheduler_intents_status_reset AFTER TRUNCATE ON scheduler_intents FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();
--> statement-breakpoint
CREATE TRIGGER progress_summaries_status_reset AFTER TRUNCATE ON progress_summaries FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();
--> statement-breakpoint
CREATE TRIGGER occurrences_status_reset AFTER TRUNCATE ON occurrences FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();
--> statement-breakpoint
CREATE TRIGGER status_deletions_status_reset AFTER TRUNCATE ON status_deletions FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();

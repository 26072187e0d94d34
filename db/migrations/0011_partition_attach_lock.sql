-- A partition made for a range whose reports wait in the default partition (a fresh database
-- before the pruner's first round, a pruner that was down) now blocks new reports while it moves
-- them, instead of failing the reports that arrive meanwhile.
--
-- ATTACH PARTITION takes only SHARE UPDATE EXCLUSIVE on progress_reports, so a report inserted
-- while the attaching transaction runs is routed by the partitions it saw when it began: to the
-- default partition, whose lock it then waits for; once the attach commits, that partition's
-- constraint excludes the range and the insert fails ("violates partition constraint") — the
-- report, and with it the summary's row in the same statement, is lost, and the status shows a
-- seq gap (seen on every fresh start: each scheduler lost one report). A row inserted into the
-- default partition between the move and the attach would make the attach itself fail.
--
-- The same race, narrower, hit a range whose first report arrived just after the check for
-- waiting rows: CREATE TABLE … PARTITION OF then found it in the default partition and failed.
--
-- Guarantees: once a partition is to be made, progress_reports is held in SHARE ROW EXCLUSIVE
-- mode (inserts wait; reads do not) before the default partition is read, so a report either
-- committed before (and moves with its range) or is routed after the commit, to the new
-- partition. The lock is asked for under the caller's lock_timeout (200 ms in the pruner's
-- round: else `busy`, and the next round tries again) and held to the caller's commit. A range
-- already covered returns before any lock, as before: a round whose partitions exist takes none.
--
-- Tables: each CREATE TABLE below makes one partition of progress_reports (one per partition
-- width); every partition is listed in report_partitions and dropped whole once its range is past
-- the reports' retention (leaseboard_retention_partitions, migration 0010), so they number at most
-- retention / width + the ones made ahead + one. Unchanged from 0010: this replaces the function
-- whole (a migration never edits an applied one), adding only the lock and the re-check.
CREATE OR REPLACE FUNCTION leaseboard_report_partition(p_from timestamptz, p_to timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  part text := 'progress_reports_p' || to_char(p_from AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MISS');
BEGIN
  IF EXISTS (SELECT 1 FROM report_partitions r WHERE r."from" < p_to AND r."to" > p_from) THEN
    RETURN false;
  END IF;
  LOCK TABLE progress_reports IN SHARE ROW EXCLUSIVE MODE;
  -- Again under the lock: a concurrent caller may have made it while this one waited.
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

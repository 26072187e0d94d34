-- Bounded renewal history without slowing renewals: the open minute bucket
-- lives on the lease row (updated by the renewal itself); when a statement
-- moves the row to another bucket (a renewal in a later minute, a takeover,
-- a release), this trigger flushes the closed bucket into renewal_gaps.
-- The WHEN clause keeps it off the hot path: it fires about once a minute.
CREATE FUNCTION leaseboard_flush_renewal_gap() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO renewal_gaps (lease, epoch, minute, max_gap_ms, renewals)
  VALUES (OLD.name, OLD.epoch, OLD.gap_bucket, OLD.gap_bucket_max_ms, OLD.gap_bucket_renewals)
  ON CONFLICT (lease, minute, epoch) DO UPDATE
    SET max_gap_ms = GREATEST(renewal_gaps.max_gap_ms, excluded.max_gap_ms),
        renewals = renewal_gaps.renewals + excluded.renewals;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leases_flush_renewal_gap
  AFTER UPDATE OF gap_bucket ON leases
  FOR EACH ROW
  WHEN (OLD.gap_bucket IS NOT NULL AND OLD.gap_bucket IS DISTINCT FROM NEW.gap_bucket)
  EXECUTE FUNCTION leaseboard_flush_renewal_gap();

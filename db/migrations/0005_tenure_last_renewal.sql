-- Where a tenure's final renewal gap began: grants record the previous epoch's last
-- renewal (leases.previous_renewed_at carries it from the locked row version to the
-- event), releases their own. History counts last renewal → end of tenure as a gap.
ALTER TABLE "lease_events" ADD COLUMN "last_renewed_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "previous_renewed_at" timestamp(6) with time zone;
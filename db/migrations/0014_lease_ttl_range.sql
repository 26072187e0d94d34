-- The database holds a lease's ttl to the server's limits, 1 s – 10 min, as the lease configuration
-- does (lib/lease/config.ts); both come from LEASE_TTL_RANGE_MS in db/schema.ts, this CHECK generated
-- from it, and lib/lease/config.int.test.ts runs the TypeScript range against it. Until now the
-- database checked only ttl_ms > 0, and `acquire(name, holder, ttlMs)` took any number.
--
-- A row outside the range could only come from SQL written by hand or a caller that bypassed the
-- configuration; it is brought to the nearest limit first (its next renewal then lasts that long),
-- so the constraint holds for every row and a renewal never trips over an old one.
UPDATE "leases" SET "ttl_ms" = LEAST(GREATEST("ttl_ms", 1000), 600000) WHERE "ttl_ms" NOT BETWEEN 1000 AND 600000;--> statement-breakpoint
ALTER TABLE "leases" DROP CONSTRAINT "leases_ttl_positive";--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_ttl_range" CHECK ("leases"."ttl_ms" BETWEEN 1000 AND 600000);

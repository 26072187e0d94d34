-- Epochs that survive a database failover (docs/design.md, "Replication and failover").
--
-- An epoch is  generation × 1,000,000,000 + tenure  (lib/status/epoch.ts says the same in TypeScript;
-- lib/lease/epoch.int.test.ts holds the two equal). The generation is the failover generation the node
-- that grants is on: its timeline − 1 (+ leaseboard_generation_base.base, below). PostgreSQL advances the
-- timeline at every promotion, and a promoted node's timeline is read at once from
-- pg_walfile_name(pg_current_wal_lsn()) (pg_control_checkpoint() lags until the first checkpoint). So
-- every epoch granted after a promotion is greater than every epoch granted before it — including the
-- grants an asynchronous standby never received and the old primary took with it: those are all of an
-- older generation. Within a generation a grant over an existing row is the previous epoch + 1, as
-- before; a database that never failed over (timeline 1, generation 0) keeps its epochs 1, 2, 3 …
--
-- leaseboard_generation_base: one row (bounded: fixed size). 0 unless a timeline restarted below the
-- epochs already granted — pg_upgrade and a logical restore start a new cluster at timeline 1 — where
-- leaseboard_align_generation() (run by the migrator at every start, db/migrate.ts) raises it so the
-- generation is again at least every lease's; until then a grant refuses (LB003) rather than hand out
-- an epoch of a generation it does not own.
--
-- leases.previous_epoch: the epoch the grant ended, as the granting statement found it under its row
-- lock (for lease_events.previous_epoch, which is no longer epoch − 1 after a failover). Written by
-- every grant over an existing row; nothing reads it elsewhere, so older rows need no backfill.
--
-- Not guaranteed: two nodes promoted from the same timeline that cannot see each other's history (no
-- shared WAL archive, no Patroni DCS) both pick the same next timeline; a backup restored and started
-- without recovery (no new timeline) re-grants the epochs it lost, like any data it lost.
CREATE TABLE "leaseboard_generation_base" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"base" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "leaseboard_generation_base_one_row" CHECK ("leaseboard_generation_base"."id"),
	CONSTRAINT "leaseboard_generation_base_not_negative" CHECK ("leaseboard_generation_base"."base" >= 0)
);
--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "previous_epoch" bigint;--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_epoch_exact_in_js" CHECK ("leases"."epoch" < 9007199254740992);
--> statement-breakpoint
INSERT INTO "leaseboard_generation_base" ("id", "base") VALUES (true, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint

-- The timeline of the WAL this node writes now (a primary; on a standby: error 55000, recovery in progress).
CREATE FUNCTION leaseboard_timeline() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  SELECT ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint
$$;
--> statement-breakpoint

-- The failover generation: the high part of every epoch this node grants now.
CREATE FUNCTION leaseboard_generation() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  SELECT leaseboard_timeline() - 1 + coalesce((SELECT base FROM leaseboard_generation_base), 0)
$$;
--> statement-breakpoint

-- Refuses a grant (LB003): `previous` is of a later generation than this node's, or its generation's last.
CREATE FUNCTION leaseboard_epoch_refused(previous bigint, generation bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF previous / 1000000000 > generation THEN
    RAISE EXCEPTION 'leaseboard epoch: epoch % is of generation %, after this database''s generation %: run the migrator (leaseboard_align_generation)',
      previous, previous / 1000000000, generation USING ERRCODE = 'LB003';
  END IF;
  RAISE EXCEPTION 'leaseboard epoch: generation % has no epoch left after %', generation, previous USING ERRCODE = 'LB003';
END $$;
--> statement-breakpoint

-- The epoch of a grant after `previous` (null: the lease's first) in `generation` (epochAfter,
-- lib/status/epoch.ts): the generation's first when `previous` is older, else `previous` + 1. Refused
-- for a previous epoch of a later generation, and after a generation's 999,999,999th grant of one
-- lease: moving into the next generation's numbers could repeat an epoch after a failover to it.
-- Plain SQL, so the planner inlines it into the grant (the refusal is a call only where it is taken).
CREATE FUNCTION leaseboard_epoch_after(previous bigint, generation bigint) RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  SELECT CASE
    WHEN previous IS NULL OR previous / 1000000000 < generation THEN generation * 1000000000 + 1
    WHEN previous / 1000000000 > generation OR previous % 1000000000 = 999999999 THEN leaseboard_epoch_refused(previous, generation)
    ELSE previous + 1
  END
$$;
--> statement-breakpoint

-- The next epoch on this node, now (for other callers; the grant computes the generation once per statement).
CREATE FUNCTION leaseboard_next_epoch(previous bigint) RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  SELECT leaseboard_epoch_after(previous, leaseboard_generation())
$$;
--> statement-breakpoint

-- Raises the base when some lease's epoch is of a later generation than this node's (a timeline that
-- restarted: pg_upgrade, a restore). Returns the generation now; null on a standby (nothing to align).
CREATE FUNCTION leaseboard_align_generation() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  ahead bigint;
BEGIN
  IF pg_is_in_recovery() THEN
    RETURN NULL;
  END IF;
  SELECT max(epoch) / 1000000000 - leaseboard_generation() INTO ahead FROM leases;
  IF ahead > 0 THEN
    UPDATE leaseboard_generation_base SET base = base + ahead;
  END IF;
  RETURN leaseboard_generation();
END $$;

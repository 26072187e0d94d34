-- The fence, enforced by the database itself (see lib/lease/fence.ts for the whole story).
--
-- To make a table T fenced:
--   1. give it the columns  lease text NOT NULL  and  epoch bigint NOT NULL;
--   2. in the same migration:  SELECT leaseboard_fence_table('T');  (idempotent)
-- Every INSERT or UPDATE of T must then write rows whose (lease, epoch) is that
-- lease's current, unexpired, unreleased epoch, and every DELETE or TRUNCATE of
-- T must run in a transaction that called leaseboard_fence(lease, epoch, resource)
-- for a current epoch. Otherwise the statement fails (SQLSTATE LB001, or LB002
-- for a DELETE without any fence) and writes nothing. A table whose rows do not
-- carry a fence but whose deletes must (a pruned log) calls
-- leaseboard_fence_deletes('T') instead.
--
-- The check reads the lease row FOR SHARE: a takeover or a renewal (an UPDATE of
-- that row) waits until the writing transaction ends, so no takeover commits
-- between check and write. One check per distinct (lease, epoch) per statement
-- (a statement-level trigger over the transition table), not one per row.
-- Not guaranteed: a superuser can disable triggers (session_replication_role).

-- Checks (lease, epoch) under a share lock on the lease row; returns the
-- database time of the check, or raises LB001 with a JSON detail the library
-- maps to its typed `rejected` result.
CREATE FUNCTION leaseboard_fence_check(p_lease text, p_epoch bigint, p_resource text) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  cur record;
  found_lease boolean;
  now timestamptz;
  reason text;
BEGIN
  SELECT l.epoch, l.released_at, l.expires_at INTO cur FROM leases l WHERE l.name = p_lease FOR SHARE;
  found_lease := FOUND;
  now := clock_timestamp();
  IF NOT found_lease THEN reason := 'no_lease';
  ELSIF p_epoch IS NULL OR cur.epoch <> p_epoch THEN reason := 'stale_epoch';
  ELSIF cur.released_at IS NOT NULL THEN reason := 'released';
  ELSIF cur.expires_at <= now THEN reason := 'expired';
  END IF;
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION 'leaseboard fence: % write to % refused (%, epoch %)', reason, p_resource, coalesce(p_lease, 'no lease'), coalesce(p_epoch::text, 'none')
      USING ERRCODE = 'LB001',
            DETAIL = json_build_object('reason', reason, 'lease', p_lease, 'attemptedEpoch', p_epoch,
                                       'currentEpoch', CASE WHEN found_lease THEN cur.epoch END,
                                       'resource', p_resource, 'at', now)::text;
  END IF;
  RETURN now;
END $$;
--> statement-breakpoint

-- What the library calls first in every fenced statement: the check, plus a
-- transaction-local note of the fence for the DELETE/TRUNCATE triggers.
CREATE FUNCTION leaseboard_fence(p_lease text, p_epoch bigint, p_resource text) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := leaseboard_fence_check(p_lease, p_epoch, p_resource);
BEGIN
  PERFORM set_config('leaseboard.fence', json_build_object('lease', p_lease, 'epoch', p_epoch)::text, true);
  RETURN at;
END $$;
--> statement-breakpoint

-- AFTER INSERT / AFTER UPDATE, once per statement: every distinct (lease, epoch)
-- among the rows written must be current.
CREATE FUNCTION leaseboard_fence_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  f record;
BEGIN
  FOR f IN SELECT DISTINCT r.lease, r.epoch FROM fenced_rows r LOOP
    PERFORM leaseboard_fence_check(f.lease, f.epoch, TG_TABLE_NAME::text);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- AFTER DELETE / BEFORE TRUNCATE, once per statement: the transaction must
-- hold a current fence (leaseboard_fence), checked again under the lock.
CREATE FUNCTION leaseboard_fence_deletes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  noted text := current_setting('leaseboard.fence', true);
  f json;
BEGIN
  IF noted IS NULL OR noted = '' THEN
    RAISE EXCEPTION 'leaseboard fence: % on % needs a fence: call leaseboard_fence(lease, epoch, resource) in the same transaction', TG_OP, TG_TABLE_NAME
      USING ERRCODE = 'LB002';
  END IF;
  f := noted::json;
  PERFORM leaseboard_fence_check(f->>'lease', (f->>'epoch')::bigint, TG_TABLE_NAME::text);
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE FUNCTION leaseboard_fence_deletes(t regclass) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_delete AFTER DELETE ON %s FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_deletes()', t);
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_deletes()', t);
END $$;
--> statement-breakpoint

CREATE FUNCTION leaseboard_fence_table(t regclass) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = t AND NOT a.attisdropped AND a.attnotnull
        AND ((a.attname = 'lease' AND a.atttypid = 'text'::regtype) OR (a.attname = 'epoch' AND a.atttypid = 'bigint'::regtype))) <> 2 THEN
    RAISE EXCEPTION 'leaseboard fence: % needs the columns lease text NOT NULL and epoch bigint NOT NULL', t;
  END IF;
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_rows()', t);
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_update AFTER UPDATE ON %s REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_rows()', t);
  PERFORM leaseboard_fence_deletes(t);
END $$;
--> statement-breakpoint

SELECT leaseboard_fence_table('plan_items');
--> statement-breakpoint
SELECT leaseboard_fence_table('occurrences');

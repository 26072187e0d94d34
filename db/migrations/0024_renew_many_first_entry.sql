-- A batch that names a lease twice renews it once and answers for its FIRST matching entry (lowest i).
-- 0018's UPDATE … FROM unnest(…) joined every matching entry to the one lease row, and PostgreSQL
-- updates a row once with an unpredictable one of its join rows: the answer's i (which entry was
-- renewed) could differ between two identical calls (seen in CI: lib/lease/protocol-functions.int.test.ts).
-- The renewal's condition and SET list are 0018's, unchanged; leaseboard_renew (0023) calls this.
CREATE OR REPLACE FUNCTION leaseboard_renew_many(p_names text[], p_holders text[], p_epochs bigint[])
RETURNS TABLE (i bigint, renewed_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute),
  wanted AS (
    SELECT DISTINCT ON (u.name) u.name, u.holder, u.epoch, u.i
    FROM c, unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS u(name, holder, epoch, i)
    JOIN leases l ON l.name = u.name AND l.holder = u.holder AND l.epoch = u.epoch
    WHERE l.released_at IS NULL AND l.expires_at > c.now
    ORDER BY u.name, u.i
  ),
  renewed AS (
UPDATE leases l SET
  renewed_at = c.now,
  expires_at = c.now + l.ttl_ms * interval '1 millisecond',
  gap_bucket = c.minute,
  gap_bucket_max_ms = CASE WHEN l.gap_bucket = c.minute
    THEN GREATEST(l.gap_bucket_max_ms, (extract(epoch FROM c.now - l.renewed_at) * 1000)::int)
    ELSE (extract(epoch FROM c.now - l.renewed_at) * 1000)::int END,
  gap_bucket_renewals = CASE WHEN l.gap_bucket = c.minute THEN l.gap_bucket_renewals + 1 ELSE 1 END,
  change_xid = pg_current_xact_id()
FROM c, wanted r
WHERE l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > c.now
RETURNING r.i, l.renewed_at, l.expires_at
)
SELECT i, renewed_at, expires_at FROM renewed;
END
$fn$;

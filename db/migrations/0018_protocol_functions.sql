-- The lease protocol as SQL functions: the one implementation of each rule,
-- called by the TypeScript library (lib/lease/sql.ts, lib/scheduler) and by any
-- program with a PostgreSQL driver (examples/python, examples/shell). Each is the
-- one conditional statement, decided on clock_timestamp(), that the library
-- issued inline before; plpgsql so its plan is cached per session, and
-- `#variable_conflict use_column` so a column never reads as an output name.
-- Arguments are positional ($1 …) in the bodies, as they were in the library.
-- Guarantees and the reasoning behind each statement: lib/lease/sql.ts.
--> statement-breakpoint
-- Acquire or take over (lib/lease/sql.ts ACQUIRE_SQL): one row, granted with the new epoch, or the refusal's explanation.
CREATE OR REPLACE FUNCTION leaseboard_acquire(p_name text, p_holder text, p_label text, p_ttl_ms int)
RETURNS TABLE (granted boolean, epoch bigint, expires_at timestamptz, holder text, live boolean, disabled boolean, disabled_by text, disabled_reason text)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS (SELECT clock_timestamp() AS now, leaseboard_generation() AS generation),
  intent AS (SELECT disabled, by, reason FROM scheduler_intents WHERE lease = $1 AND disabled),
  latest AS (SELECT epoch, holder, expires_at, released_at FROM leases WHERE name = $1 FOR SHARE),
  done AS (
    INSERT INTO leases AS l (name, holder, holder_label, epoch, acquired_at, renewed_at, expires_at, ttl_ms)
    SELECT $1, $2, $3, leaseboard_epoch_after(NULL, c.generation), c.now, c.now, c.now + $4::int * interval '1 millisecond', $4::int FROM c
    WHERE NOT EXISTS (SELECT 1 FROM intent)
    ON CONFLICT (name) DO UPDATE SET
      holder = excluded.holder, holder_label = excluded.holder_label, epoch = leaseboard_epoch_after(l.epoch, excluded.epoch / 1000000000),
      acquired_at = excluded.acquired_at, renewed_at = excluded.renewed_at, expires_at = excluded.expires_at,
      ttl_ms = excluded.ttl_ms, released_at = NULL,
      -- SET sees the row version the lock was taken on, so these name the
      -- tenure this grant really ends, even if a competitor moved it since our snapshot.
      previous_epoch = l.epoch, previous_holder = l.holder, previous_ended_at = COALESCE(l.released_at, l.expires_at),
      previous_released = l.released_at IS NOT NULL, previous_renewed_at = l.renewed_at,
      gap_bucket = NULL, gap_bucket_max_ms = NULL, gap_bucket_renewals = NULL
    WHERE l.released_at IS NOT NULL OR l.expires_at <= excluded.acquired_at
    RETURNING l.epoch, l.acquired_at, l.expires_at, l.previous_epoch, l.previous_holder, l.previous_ended_at, l.previous_released,
              l.previous_renewed_at
  ),
  event AS (
    -- The first grant of a lease inserted its row: no previous epoch (the row's previous_* are null).
    INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at, previous_epoch, previous_holder, previous_ended_at, last_renewed_at)
    SELECT $1, CASE WHEN done.previous_epoch IS NULL OR done.previous_released THEN 'acquired' ELSE 'taken_over' END,
           done.epoch, $2, $3, done.acquired_at, done.previous_epoch, done.previous_holder, done.previous_ended_at,
           CASE WHEN done.previous_released THEN NULL ELSE done.previous_renewed_at END
    FROM done
  )
SELECT true AS granted, done.epoch, done.expires_at, NULL::text AS holder, NULL::boolean AS live,
       NULL::boolean AS disabled, NULL::text AS disabled_by, NULL::text AS disabled_reason
FROM done
UNION ALL
SELECT false, latest.epoch, latest.expires_at, latest.holder,
       latest.released_at IS NULL AND latest.expires_at > (SELECT now FROM c),
       intent.disabled, intent.by, intent.reason
FROM c LEFT JOIN latest ON true LEFT JOIN intent ON true
WHERE NOT EXISTS (SELECT 1 FROM done);
END
$fn$;
--> statement-breakpoint
-- Renew: a row when renewed (name, holder, epoch, not released, not expired); none when refused.
CREATE OR REPLACE FUNCTION leaseboard_renew(p_name text, p_holder text, p_epoch bigint)
RETURNS TABLE (renewed_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH renewed AS (
UPDATE leases l SET
  renewed_at = c.now,
  expires_at = c.now + l.ttl_ms * interval '1 millisecond',
  gap_bucket = c.minute,
  gap_bucket_max_ms = CASE WHEN l.gap_bucket = c.minute
    THEN GREATEST(l.gap_bucket_max_ms, (extract(epoch FROM c.now - l.renewed_at) * 1000)::int)
    ELSE (extract(epoch FROM c.now - l.renewed_at) * 1000)::int END,
  gap_bucket_renewals = CASE WHEN l.gap_bucket = c.minute THEN l.gap_bucket_renewals + 1 ELSE 1 END,
  change_xid = pg_current_xact_id()
FROM (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute) c,
  (SELECT $1::text AS name, $2::text AS holder, $3::bigint AS epoch) r
WHERE l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > c.now
RETURNING l.renewed_at, l.expires_at
)
SELECT renewed_at, expires_at FROM renewed;
END
$fn$;
--> statement-breakpoint
-- Renew many in one statement: a row per lease renewed, with the request's 1-based position i.
CREATE OR REPLACE FUNCTION leaseboard_renew_many(p_names text[], p_holders text[], p_epochs bigint[])
RETURNS TABLE (i bigint, renewed_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute),
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
FROM c, unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS r(name, holder, epoch, i)
WHERE l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > c.now
RETURNING r.i, l.renewed_at, l.expires_at
)
SELECT i, renewed_at, expires_at FROM renewed;
END
$fn$;
--> statement-breakpoint
-- Release: a row when this tenure ended now; none when it was not current.
CREATE OR REPLACE FUNCTION leaseboard_release(p_name text, p_holder text, p_epoch bigint)
RETURNS TABLE (released_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS (SELECT clock_timestamp() AS now),
  done AS (
    UPDATE leases l SET released_at = c.now, expires_at = LEAST(l.expires_at, c.now),
      gap_bucket = NULL, gap_bucket_max_ms = NULL, gap_bucket_renewals = NULL, change_xid = pg_current_xact_id()
    FROM c
    WHERE l.name = $1 AND l.holder = $2 AND l.epoch = $3 AND l.released_at IS NULL AND l.expires_at > c.now
    RETURNING l.released_at, l.holder_label, l.renewed_at
  ),
  event AS (
    INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at, last_renewed_at)
    SELECT $1, 'released', $3, $2, done.holder_label, done.released_at, done.renewed_at FROM done
  )
SELECT released_at FROM done;
END
$fn$;
--> statement-breakpoint
-- Report progress (lib/scheduler/report-store.ts): append, and move the summary unless an older epoch reports late.
-- Its break rule is lib/status/report-break.ts's reportBreakSql, written out (a test compares them).
CREATE OR REPLACE FUNCTION leaseboard_report(p_lease text, p_epoch bigint, p_seq int, p_occurrence text, p_cursor bigint, p_report_every_ms int)
RETURNS TABLE (advanced boolean, reported_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS (SELECT clock_timestamp() AS now),
  prev AS (SELECT * FROM progress_summaries WHERE lease = $1),
  r AS (
    SELECT $1::text AS lease, $2::bigint AS epoch, $3::int AS seq, $4::text AS occurrence, $5::bigint AS cursor,
           $6::int AS every, c.now,
           (prev.lease IS NULL OR prev.epoch < $2::bigint
             OR prev.in_flight IS DISTINCT FROM $4::text OR prev.cursor IS DISTINCT FROM $5::bigint) AS advanced,
           CASE WHEN prev.epoch = $2::bigint THEN (CASE WHEN $3::int <> prev.last_seq + 1 THEN 'lost_reports'
      WHEN c.now - prev.last_report_at > 3 * (prev.report_every_ms) * interval '1 millisecond' THEN 'silence' END) END AS break_reason,
           prev.last_report_at AS break_from
    FROM c LEFT JOIN prev ON true
  ),
  appended AS (
    INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at, report_every_ms)
    SELECT lease, epoch, seq, occurrence, cursor, advanced, now, every FROM r
  ),
  summary AS (
    INSERT INTO progress_summaries AS s (lease, epoch, first_report_at, last_report_at, last_seq, last_advance_at,
                                         in_flight, cursor, report_every_ms, gap_from, gap_to, gap_reason)
    SELECT lease, epoch, now, now, seq, now, occurrence, cursor, every,
           CASE WHEN break_reason IS NOT NULL THEN break_from END,
           CASE WHEN break_reason IS NOT NULL THEN now END, break_reason
    FROM r
    ON CONFLICT (lease) DO UPDATE SET
      epoch = excluded.epoch,
      first_report_at = CASE WHEN s.epoch = excluded.epoch THEN s.first_report_at ELSE excluded.first_report_at END,
      last_report_at = excluded.last_report_at,
      last_seq = excluded.last_seq,
      last_advance_at = CASE WHEN (SELECT advanced FROM r) THEN excluded.last_advance_at ELSE s.last_advance_at END,
      in_flight = excluded.in_flight,
      cursor = excluded.cursor,
      report_every_ms = excluded.report_every_ms,
      gap_from = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_from ELSE s.gap_from END,
      gap_to = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_to ELSE s.gap_to END,
      gap_reason = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_reason ELSE s.gap_reason END,
      change_xid = pg_current_xact_id()
    WHERE s.epoch <= excluded.epoch
  )
SELECT advanced, now AS reported_at FROM r;
END
$fn$;
--> statement-breakpoint
-- Register (lib/scheduler/registration.ts): a scheduler's cadence and thresholds; the newest registration wins whole.
CREATE OR REPLACE FUNCTION leaseboard_register(p_name text, p_every_ms int, p_report_every_ms int, p_stall_after_ms int, p_overdue_after_ms int)
RETURNS void
LANGUAGE sql VOLATILE AS $fn$
INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at)
VALUES ($1, $2, $3, $4, $5, clock_timestamp())
ON CONFLICT (name) DO UPDATE SET every_ms = excluded.every_ms, report_every_ms = excluded.report_every_ms,
  stall_after_ms = excluded.stall_after_ms, overdue_after_ms = excluded.overdue_after_ms, registered_at = excluded.registered_at
$fn$;

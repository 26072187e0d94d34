/**
 * The lease authority's statements. Each decision is ONE conditional statement
 * judged on `clock_timestamp()` read once (`c`); nothing here trusts an
 * application clock. Kept apart from the TypeScript so the SQL reads whole.
 * The renewal-gap rollup is flushed by a trigger (migration 0001) whenever a
 * statement moves `gap_bucket`, so these statements stay single-row updates.
 * Renewal and release stamp `change_xid` themselves (the status service's
 * incremental read, lib/server/live/changes.ts), so the stamping trigger's
 * WHEN clause keeps it off the hot path; the grant's upsert is stamped by it.
 */

/**
 * Acquire or take over: $1 name, $2 holder, $3 label, $4 ttl ms.
 * Grants only when no row exists, or the row is released or expired, and the
 * operator has not disabled the lease. The epoch is `leaseboard_epoch_after`'s
 * (migration failover_generation, lib/status/epoch.ts) in this node's failover
 * generation, read once (`c`): the previous epoch + 1 within the generation,
 * else the generation's first — so a grant after a promotion outranks every
 * grant before it, even those the promoted node never received. The insert's
 * epoch is the generation's first, so the update reads the generation from
 * `excluded`. The epoch it ended is `previous_epoch` (never epoch − 1).
 * Competing statements serialise on the row lock and re-check the condition
 * on the newest row version, so at most one wins each epoch.
 * Returns one row: `granted` with the new epoch, or — to explain a refusal —
 * the newest committed row (`FOR SHARE` follows a competitor's update, where a
 * plain read would see this statement's older snapshot) and the intent.
 */
export const ACQUIRE_SQL = `
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
WHERE NOT EXISTS (SELECT 1 FROM done)`;

/** Current row: $1 name. */
export const READ_LEASE_SQL = `
SELECT l.name, l.holder, l.holder_label, l.epoch, l.acquired_at, l.renewed_at, l.expires_at, l.ttl_ms, l.released_at,
       l.released_at IS NULL AND l.expires_at > clock_timestamp() AS live
FROM leases l WHERE l.name = $1`;

/** The SET list of a renewal: the new expiry, and the open renewal-gap bucket (longest gap between renewals this minute) on the row. */
const RENEWAL_SET = `
  renewed_at = c.now,
  expires_at = c.now + l.ttl_ms * interval '1 millisecond',
  gap_bucket = c.minute,
  gap_bucket_max_ms = CASE WHEN l.gap_bucket = c.minute
    THEN GREATEST(l.gap_bucket_max_ms, (extract(epoch FROM c.now - l.renewed_at) * 1000)::int)
    ELSE (extract(epoch FROM c.now - l.renewed_at) * 1000)::int END,
  gap_bucket_renewals = CASE WHEN l.gap_bucket = c.minute THEN l.gap_bucket_renewals + 1 ELSE 1 END,
  change_xid = pg_current_xact_id()`;

/** The renewal condition for the request row `r`: name AND holder AND epoch AND not released AND not expired. */
const RENEWAL_WHERE = `l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > c.now`;

/**
 * Renew: $1 name, $2 holder, $3 epoch. Matches name AND holder AND epoch AND
 * not released AND not expired; never changes the epoch. Also keeps the open
 * renewal-gap bucket on the row.
 */
export const RENEW_SQL = `
UPDATE leases l SET${RENEWAL_SET}
FROM (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute) c,
  (SELECT $1::text AS name, $2::text AS holder, $3::bigint AS epoch) r
WHERE ${RENEWAL_WHERE}
RETURNING l.renewed_at, l.expires_at`;

/**
 * Renew many in ONE statement: $1 names, $2 holders, $3 epochs (arrays of one
 * length, no request twice). Each lease is judged on its own by exactly the
 * single renewal's condition and SET, against the statement's one reading of
 * the database clock (`c`, materialized: read once however the join runs).
 * Returns one row per lease renewed, with the request's position `i` (1-based);
 * a request without a row was refused (lost).
 */
export const RENEW_MANY_SQL = `
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute)
UPDATE leases l SET${RENEWAL_SET}
FROM c, unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS r(name, holder, epoch, i)
WHERE ${RENEWAL_WHERE}
RETURNING r.i, l.renewed_at, l.expires_at`;

/** Release: $1 name, $2 holder, $3 epoch. Keeps the row; ends the tenure now. */
export const RELEASE_SQL = `
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
SELECT released_at FROM done`;

/**
 * The lease authority's statements. Each decision is ONE conditional statement
 * judged on `clock_timestamp()` read once (`c`); nothing here trusts an
 * application clock. The statements themselves are SQL functions
 * (db/migrations/0018_protocol_functions.sql: leaseboard_acquire, _renew,
 * _renew_many, _release; and leaseboard_report, leaseboard_register for the
 * runtime), the one implementation every client calls — this library, the
 * Python and shell examples, any language with a PostgreSQL driver. What each
 * guarantees is written here, beside the call.
 * The renewal-gap rollup is flushed by a trigger (migration 0001) whenever a
 * statement moves `gap_bucket`, so these statements stay single-row updates.
 * Renewal and release stamp themselves (the status service's incremental
 * read, lib/server/live/facts-sql.ts), so the stamping trigger's WHEN clause
 * keeps it off the hot path; the grant's upsert is stamped by it. A release
 * stamps `change_xid`; a renewal only `touch_xid` (it moves renewed_at and
 * expires_at alone: migration rejudge_only_changes).
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
export const ACQUIRE_SQL = `SELECT * FROM leaseboard_acquire($1, $2, $3, $4)`;

/** Current row: $1 name. */
export const READ_LEASE_SQL = `
SELECT l.name, l.holder, l.holder_label, l.epoch, l.acquired_at, l.renewed_at, l.expires_at, l.ttl_ms, l.released_at,
       l.released_at IS NULL AND l.expires_at > clock_timestamp() AS live
FROM leases l WHERE l.name = $1`;

/**
 * Renew: $1 name, $2 holder, $3 epoch. Matches name AND holder AND epoch AND
 * not released AND not expired; never changes the epoch. Also keeps the open
 * renewal-gap bucket on the row.
 */
export const RENEW_SQL = `SELECT * FROM leaseboard_renew($1, $2, $3)`;

/**
 * Renew many in ONE statement: $1 names, $2 holders, $3 epochs (arrays of one
 * length, no request twice). Each lease is judged on its own by exactly the
 * single renewal's condition and SET, against the statement's one reading of
 * the database clock (`c`, materialized: read once however the join runs).
 * Returns one row per lease renewed, with the request's position `i` (1-based);
 * a request without a row was refused (lost).
 */
export const RENEW_MANY_SQL = `SELECT * FROM leaseboard_renew_many($1, $2, $3)`;

/** Release: $1 name, $2 holder, $3 epoch. Keeps the row; ends the tenure now. */
export const RELEASE_SQL = `SELECT * FROM leaseboard_release($1, $2, $3)`;

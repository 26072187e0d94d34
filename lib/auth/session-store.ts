/**
 * Open sessions (operator token and OpenID Connect) in PostgreSQL (table `operator_sessions`), so that
 * signing out ends a session at once on every dashboard instance, and a
 * restart with the same LEASEBOARD_SESSION_SECRET does not bring it back.
 *
 * Guarantees: every time is the database's (`clock_timestamp()`); a session
 * is open only while recorded, not revoked and not expired. Bounded: one row
 * per sign-in; opening a session deletes, in the same statement, the rows
 * that expired more than a day before (a session lives 7 days at most, and
 * sign-in needs the operator token and is rate-limited, or a sign-in at the
 * OpenID provider: lib/actions).
 * Not guaranteed: a revocation that fails to commit (the store is down) — the
 * sign-out answers the error, and the cookie is cleared either way.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SessionStore } from './session';

export function pgSessionStore(db: Pick<pg.Pool, 'query'>): SessionStore {
  return {
    async open(who, ttlMs) {
      const id = randomBytes(18).toString('base64url');
      await db.query(
        `WITH expired AS (DELETE FROM operator_sessions WHERE expires_at < clock_timestamp() - interval '1 day')
         INSERT INTO operator_sessions (id, who, opened_at, expires_at)
         VALUES ($1, $2, clock_timestamp(), clock_timestamp() + $3 * interval '1 millisecond')`,
        [id, who, ttlMs],
      );
      return id;
    },
    async isOpen(id) {
      const { rowCount } = await db.query('SELECT 1 FROM operator_sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > clock_timestamp()', [id]);
      return rowCount === 1;
    },
    async revoke(id) {
      await db.query('UPDATE operator_sessions SET revoked_at = clock_timestamp() WHERE id = $1 AND revoked_at IS NULL', [id]);
    },
  };
}

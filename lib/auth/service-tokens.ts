/**
 * Service tokens: `lbs_<id>.<secret>`, a named bearer credential an admin
 * makes for a script, with a grant (./grant.ts: scopes over a list of
 * schedulers or a label selector). `id` (12 hex) is public and names the
 * row, so a presented token is looked up by its id, never by trying hashes;
 * `secret` is 32 random bytes (base64url), stored only as an HMAC-SHA256
 * keyed with a random salt of the token's own.
 *
 * Guarantees
 * - A token names nothing about the machine or the person: random bytes and
 *   the prefix only (its name lives in the table, not in the token).
 * - Verification compares MACs in constant time; an unknown id, a wrong
 *   secret, a revoked token are one answer (null), never told apart.
 * - A use stamps `last_used_at` (database time) at most once a minute per
 *   token, so a busy script does not write on every request.
 * - A table that cannot be read fails closed: the token counts for nothing.
 * Not guaranteed: that a leaked token is noticed — revoke it; its next use is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import type { ServiceTokenScope } from '../api/service-token-scopes';
import { type Grant, isScope, schedulersGrant, selectorGrant } from './grant';

const TOKEN = /^lbs_([0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;
const BEARER = /^Bearer\s+(\S+)$/i;

export interface PresentedServiceToken {
  id: string;
  secret: string;
}

/** The service token an Authorization header carries: `{ token }`, `malformed` (a Bearer lbs_… that is not one), or null (none). */
export function presentedServiceToken(authorization: string | null): PresentedServiceToken | 'malformed' | null {
  const bearer = BEARER.exec(authorization?.trim() ?? '')?.[1];
  if (bearer === undefined || !bearer.startsWith('lbs_')) return null;
  const parts = TOKEN.exec(bearer);
  return parts ? { id: parts[1]!, secret: parts[2]! } : 'malformed';
}

const mac = (salt: Buffer, secret: string) => createHmac('sha256', salt).update(secret).digest();

export interface MintedServiceToken {
  id: string;
  /** The whole token: shown once, never stored. */
  token: string;
  salt: Buffer;
  secretHmac: Buffer;
}

export function mintServiceToken(): MintedServiceToken {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const salt = randomBytes(16);
  return { id, token: `lbs_${id}.${secret}`, salt, secretHmac: mac(salt, secret) };
}

function serviceSecretMatches(presented: PresentedServiceToken, salt: Buffer, stored: Buffer): boolean {
  const given = mac(salt, presented.secret);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Who a verified token is: its name (what the audit records) and what it may do. */
interface ServiceTokenIdentity {
  name: string;
  grant: Grant;
}

/** How identity finds tokens (./service-token-store.ts: the table). */
export interface ServiceTokenStore {
  /** The token's identity when it is known, not revoked and its secret matches; else null. Stamps its use. */
  authenticate(presented: PresentedServiceToken): Promise<ServiceTokenIdentity | null>;
}

interface TokenRow {
  name: string;
  scopes: string[];
  schedulers: string[] | null;
  selector: string | null;
  salt: Buffer;
  secret_hmac: Buffer;
}

/** The grant a stored row carries; null for a row that does not make one (never stored by this code). */
function grantOfRow(row: Pick<TokenRow, 'scopes' | 'schedulers' | 'selector'>): Grant | null {
  const scopes = row.scopes.filter(isScope) as ServiceTokenScope[];
  if (scopes.length !== row.scopes.length) return null;
  if (row.schedulers !== null) return schedulersGrant(scopes, row.schedulers);
  return row.selector === null ? null : selectorGrant(scopes, [row.selector]);
}

export function pgServiceTokenStore(db: Pick<pg.Pool, 'query'>): ServiceTokenStore {
  return {
    async authenticate(presented) {
      const SQL = 'SELECT name, scopes, schedulers, selector, salt, secret_hmac FROM service_tokens WHERE id = $1 AND revoked_at IS NULL';
      // A store that cannot be read fails closed: the token counts for nothing.
      const found = await db.query<TokenRow>(SQL, [presented.id]).catch(() => null);
      const row = found?.rows[0];
      if (row === undefined || !serviceSecretMatches(presented, row.salt, row.secret_hmac)) return null;
      const grant = grantOfRow(row);
      if (grant === null) return null;
      // A stamp that fails (a read-only login) does not refuse the token: its last use is a hint, not a check.
      await db
        .query(
          `UPDATE service_tokens SET last_used_at = clock_timestamp()
          WHERE id = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute')`,
          [presented.id],
        )
        .catch(() => undefined);
      return { name: row.name, grant };
    },
  };
}

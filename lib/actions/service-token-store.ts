/**
 * Service tokens' list and writes, for whoever may already make them: an
 * admin over HTTP (./service-tokens.ts) or `leaseboard tokens` acting with the
 * dashboard's actions login (configuration as code, and the first token before
 * sign-in is set up).
 *
 * Guarantees
 * - One transaction per action, with its audit row (service_token_audit:
 *   who, how identified, which token, why, when): a token never exists, or
 *   stops existing, unaudited.
 * - The token is returned once, at creation; only a salted HMAC of its
 *   secret is stored (../auth/service-tokens.ts).
 * - Bounded: at most SERVICE_TOKENS_LIVE unrevoked tokens (`too_many`),
 *   serialised by an advisory lock; each create or revoke first deletes
 *   tokens revoked more than SERVICE_TOKENS_REVOKED_KEPT_DAYS ago.
 * - A live token's name is unique (`name_taken`); a selector that does not
 *   parse, or a bad scheduler name, is `invalid` naming it, nothing written.
 */
import type pg from 'pg';
import type { z } from 'zod';
import { inTransaction } from '../../db/transaction';
import type { ServiceTokenCreateRequestSchema } from '../api/schemas';
import type { ServiceTokenCreated, ServiceTokenInfo } from '../api/types';
import { mintServiceToken } from '../auth/service-tokens';
import { checkName } from '../http/params';
import type { IdentifiedBy } from '../limits';
import { formatSelector, parseSelector } from '../limits/selector';

export const SERVICE_TOKENS_LIVE = 100;
export const SERVICE_TOKENS_REVOKED_KEPT_DAYS = 30;

/** A token's public id: what revoking names. */
export const SERVICE_TOKEN_ID = /^[0-9a-f]{12}$/;

export type ServiceTokenRequest = z.infer<typeof ServiceTokenCreateRequestSchema>;

export interface TokenActor {
  by: string;
  identifiedBy: IdentifiedBy;
}

export type CreateResult =
  { kind: 'created'; token: ServiceTokenCreated } | { kind: 'invalid'; message: string } | { kind: 'name_taken' } | { kind: 'too_many' };

interface Row {
  id: string;
  name: string;
  scopes: ServiceTokenInfo['scopes'];
  schedulers: string[] | null;
  selector: string | null;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, scopes, schedulers, selector, created_by, created_at, last_used_at, revoked_at';

const infoOf = (row: Row): ServiceTokenInfo => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  schedulers: row.schedulers,
  selector: row.selector,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

/** Why a create was refused, in the words the API and the command line both say. */
export function createRefusal(result: Exclude<CreateResult, { kind: 'created' }>, name: string): string {
  switch (result.kind) {
    case 'invalid':
      return result.message;
    case 'name_taken':
      return `a live service token is already named ${name}; revoke it first or pick another name`;
    case 'too_many':
      return `there are ${SERVICE_TOKENS_LIVE} live service tokens, the most allowed; revoke one first`;
    default: {
      const unreachable: never = result;
      throw new Error(`unexpected service token result ${JSON.stringify(unreachable)}`);
    }
  }
}

const pruneRevoked = (client: pg.ClientBase) =>
  client.query(`DELETE FROM service_tokens WHERE revoked_at < clock_timestamp() - $1 * interval '1 day'`, [SERVICE_TOKENS_REVOKED_KEPT_DAYS]);

/** Every token (live first, newest first), with its last use; never a secret. */
export async function listServiceTokens(db: Pick<pg.Pool, 'query'>): Promise<ServiceTokenInfo[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM service_tokens ORDER BY revoked_at IS NOT NULL, created_at DESC, id`);
  return rows.map(infoOf);
}

/** A new token for a checked request (the API's schema), audited with the request's reason; its secret is in the answer only. */
export async function createServiceToken(pool: Pick<pg.Pool, 'connect'>, request: ServiceTokenRequest, actor: TokenActor): Promise<CreateResult> {
  const { name, scopes, reason } = request;
  let selector: string | null = null;
  if (request.selector !== undefined) {
    const parsed = parseSelector(request.selector);
    if (!parsed.ok) return { kind: 'invalid', message: parsed.message };
    selector = formatSelector(parsed.selector);
  }
  const schedulers = request.schedulers === undefined ? null : [...new Set(request.schedulers)];
  for (const scheduler of schedulers ?? []) {
    const checked = checkName(scheduler);
    if (!checked.ok) return { kind: 'invalid', message: `schedulers: ${checked.error.message}` };
  }
  const minted = mintServiceToken();
  const made = await inTransaction(
    pool,
    async (client): Promise<Row | 'too_many' | 'name_taken'> => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('leaseboard.service_tokens'))`);
      await pruneRevoked(client);
      const { rows } = await client.query<{ live: number; taken: boolean }>(
        `SELECT count(*)::int AS live, bool_or(name = $1) AS taken FROM service_tokens WHERE revoked_at IS NULL`,
        [name],
      );
      if (rows[0]!.taken) return 'name_taken';
      if (rows[0]!.live >= SERVICE_TOKENS_LIVE) return 'too_many';
      const inserted = await client.query<Row>(
        `WITH made AS (
           INSERT INTO service_tokens (id, name, scopes, schedulers, selector, salt, secret_hmac, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp()) RETURNING ${COLUMNS}
         ), audit AS (
           INSERT INTO service_token_audit (token_id, name, action, "by", identified_by, reason, at)
           SELECT id, name, 'create', $8, $9, $10, created_at FROM made
         )
         SELECT * FROM made`,
        [minted.id, name, scopes, schedulers, selector, minted.salt, minted.secretHmac, actor.by, actor.identifiedBy, reason],
      );
      return inserted.rows[0]!;
    },
    (result) => typeof result !== 'string',
  );
  if (made === 'name_taken' || made === 'too_many') return { kind: made };
  return { kind: 'created', token: { ...infoOf(made), token: minted.token } };
}

/** Revoke a live token (its next use gets 401), audited; null when no live token has that id. */
export async function revokeServiceToken(pool: Pick<pg.Pool, 'connect'>, id: string, actor: TokenActor & { reason: string }): Promise<ServiceTokenInfo | null> {
  const revoked = await inTransaction(
    pool,
    async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('leaseboard.service_tokens'))`);
      await pruneRevoked(client);
      const { rows } = await client.query<Row>(
        `WITH gone AS (
           UPDATE service_tokens SET revoked_at = clock_timestamp() WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}
         ), audit AS (
           INSERT INTO service_token_audit (token_id, name, action, "by", identified_by, reason, at)
           SELECT id, name, 'revoke', $2, $3, $4, revoked_at FROM gone
         )
         SELECT * FROM gone`,
        [id, actor.by, actor.identifiedBy, actor.reason],
      );
      return rows[0] ?? null;
    },
    (row) => row !== null,
  );
  return revoked === null ? null : infoOf(revoked);
}

// A service token written straight into the table, as an admin's POST /api/v1/tokens would (the secret
// minted and MACed by ../service-tokens.ts), for suites that have no admin to sign in: the attack's probes.
import type pg from 'pg';
import type { ServiceTokenScope } from '../../api/service-token-scopes';
import { mintServiceToken } from '../service-tokens';

export async function insertServiceToken(
  db: Pick<pg.Pool, 'query'>,
  token: { name: string; scopes: ServiceTokenScope[]; schedulers: string[]; revoked?: boolean },
): Promise<string> {
  const minted = mintServiceToken();
  await db.query(
    `INSERT INTO service_tokens (id, name, scopes, schedulers, salt, secret_hmac, created_by, created_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'test', clock_timestamp(), CASE WHEN $7 THEN clock_timestamp() END)`,
    [minted.id, token.name, token.scopes, token.schedulers, minted.salt, minted.secretHmac, token.revoked === true],
  );
  return minted.token;
}

// Service tokens and operators limited to a selector, end to end against the run's database and a real
// OpenID provider (oidc-provider over HTTP): an admin signed in through the provider makes a token (shown
// once, stored as a salted HMAC), lists it with its last use, revokes it; a token acts within its scopes
// and its schedulers only and is named in the audit; a token without `read` reads nothing; a revoked one is
// refused; the payments group, mapped `operator[team=payments]`, operates team=payments only.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

import type { Pool } from 'pg';
import { uniqueLease, usePool } from '../../db/testing/pools';
import { checkAccess } from '../auth/access';
import { enablePeerStamping, PEER_HEADER } from '../http/peer';
import { parseProxyTrust } from '../http/proxies';
import { tokenRefusals } from '../http/token-refusals';
import { parseAuthConfig } from '../auth/config';
import { CLIENT_ID, CLIENT_SECRET, signInAtProvider, startProvider, type TestProvider } from '../auth/oidc/testing/provider';
import { pgServiceTokenStore, type PresentedServiceToken } from '../auth/service-tokens';
import { pgSessionStore } from '../auth/session-store';
import { register } from '../server/testing/seed';
import { type ActionDeps, intentRoute, labelsRoute } from './http';
import { changeLabels } from './labels';
import { oidcCallbackRoute, oidcLoginRoute } from './oidc-routes';
import { SERVICE_TOKENS_LIVE, SERVICE_TOKENS_REVOKED_KEPT_DAYS } from './service-token-store';
import { createServiceTokenRoute, listServiceTokensRoute, revokeServiceTokenRoute } from './service-tokens';
import { signInLimiter } from './sign-in-limit';

const PUBLIC = 'http://leaseboard.test';
const REDIRECT = `${PUBLIC}/api/v1/session/oidc/callback`;
const SAME = { host: 'leaseboard.test', origin: PUBLIC, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
/** What a script sends: no browser headers, the action header, its token. */
const script = (token: string) => ({ 'x-leaseboard-action': '1', 'content-type': 'application/json', authorization: `Bearer ${token}` });

let provider: TestProvider;
beforeAll(async () => {
  provider = await startProvider({ redirectUri: REDIRECT, postLogoutUri: `${PUBLIC}/`, accounts: { root: ['sre-admins'], pat: ['payments'], olga: ['ops'] } });
});
afterAll(() => provider?.close());

function depsFor(pool: Pool, anonymous: 'viewer' | 'none' = 'none'): ActionDeps {
  const auth = parseAuthConfig({
    LEASEBOARD_PUBLIC_URL: PUBLIC,
    LEASEBOARD_SESSION_SECRET: 'service-token-test-session-secret-0123456789',
    LEASEBOARD_OIDC_ISSUER: provider.issuer,
    LEASEBOARD_OIDC_CLIENT_ID: CLIENT_ID,
    LEASEBOARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    LEASEBOARD_OIDC_ROLES: 'sre-admins=admin,payments=operator[team=payments],ops=operator',
    LEASEBOARD_ANONYMOUS: anonymous,
  });
  return {
    auth,
    sessions: pgSessionStore(pool),
    serviceTokens: pgServiceTokenStore(pool),
    signIns: signInLimiter(() => {}),
    writer: pool,
    nowMs: () => Date.now(),
    basePath: '',
  };
}

async function signIn(deps: ActionDeps, login: string): Promise<string> {
  const started = await oidcLoginRoute('/', deps);
  const flow = started.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('leaseboard_oidc_flow='))!;
  const callback = await signInAtProvider(started.headers.get('location')!, login, REDIRECT);
  const done = await oidcCallbackRoute(new Request(callback, { headers: { cookie: flow } }), deps);
  expect(done.status).toBe(303);
  return done.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('leaseboard_oidc='))!;
}

const request = (path: string, method: string, headers: Record<string, string>, body?: unknown) =>
  new Request(`${PUBLIC}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });

async function scheduler(pool: Pool, prefix: string, team: string): Promise<string> {
  const name = uniqueLease(prefix);
  await register(pool, name);
  await changeLabels(pool, name, { labels: { team }, by: 'setup', reason: 'ownership' }, { identifiedBy: 'cli' });
  return name;
}

const disable = (deps: ActionDeps, name: string, headers: Record<string, string>) =>
  intentRoute(request(`/api/v1/schedulers/${name}/intent`, 'POST', headers, { disabled: true, reason: 'deploy freeze' }), name, deps);

/** The budget of bad service tokens the access check keeps per client, across a test's gate calls as in a server. */
let refusals = tokenRefusals('service token', () => {});
const gate = (deps: ActionDeps, method: string, pathname: string, headers: Record<string, string>) =>
  checkAccess(
    { ...deps, basePath: '', serviceTokenRefusals: refusals, trust: parseProxyTrust({}) },
    { method, pathname, search: '', headers: new Headers(headers) },
    Date.now(),
  );
const stamp = enablePeerStamping();
const from = (address: string, headers: Record<string, string>) => ({ ...headers, [PEER_HEADER]: stamp(address) });

async function intentRows(pool: Pool, name: string) {
  const { rows } = await pool.query('SELECT disabled, "by", identified_by FROM intent_audit WHERE lease = $1', [name]);
  return rows;
}

describe('service tokens', () => {
  const pool = usePool();

  it('an admin makes a token shown once and stored as a salted HMAC; it acts within its scope and schedulers, named in the audit', async () => {
    const deps = depsFor(pool);
    const admin = await signIn(deps, 'root');
    const payments = await scheduler(pool, 'tok-pay', 'payments');
    const search = await scheduler(pool, 'tok-search', 'search');
    const name = `deploy-${uniqueLease('b').slice(-6)}`;
    const created = await createServiceTokenRoute(
      request('/api/v1/tokens', 'POST', { ...SAME, cookie: admin }, { name, scopes: ['intents'], selector: 'team=payments', reason: 'deploy pipeline' }),
      deps,
    );
    expect(created.status).toBe(201);
    const made = (await created.json()) as { id: string; token: string; selector: string; createdBy: string };
    expect(made).toMatchObject({ selector: 'team=payments', createdBy: 'root' });
    expect(made.token).toMatch(new RegExp(`^lbs_${made.id}\\.[A-Za-z0-9_-]{43}$`));
    const secret = made.token.split('.')[1]!;
    const stored = await pool.query('SELECT salt, secret_hmac FROM service_tokens WHERE id = $1', [made.id]);
    expect(stored.rows[0].salt).toHaveLength(16);
    expect(stored.rows[0].secret_hmac.toString('hex')).not.toContain(Buffer.from(secret).toString('hex'));
    const audit = await pool.query('SELECT action, "by", identified_by FROM service_token_audit WHERE token_id = $1', [made.id]);
    expect(audit.rows).toEqual([{ action: 'create', by: 'root', identified_by: 'sso' }]);

    // Within its scope and schedulers: done, and the audit names the token.
    expect((await gate(deps, 'POST', `/api/v1/schedulers/${payments}/intent`, script(made.token))).refusal).toBeNull();
    expect((await disable(deps, payments, script(made.token))).status).toBe(200);
    expect(await intentRows(pool, payments)).toEqual([{ disabled: true, by: name, identified_by: 'service_token' }]);
    // Another team's scheduler, an unknown one, and an action outside its scopes: refused, nothing changed.
    const outside = await disable(deps, search, script(made.token));
    expect(outside.status).toBe(403);
    expect(((await outside.json()) as { error: { message: string } }).error.message).toMatch(/team=payments/);
    expect(await intentRows(pool, search)).toEqual([]);
    expect((await disable(deps, `${payments}-nope`, script(made.token))).status).toBe(403);
    const relabel = await labelsRoute(
      request(`/api/v1/schedulers/${search}/labels`, 'PUT', script(made.token), { labels: { team: 'payments' }, reason: 'take it over' }),
      search,
      deps,
    );
    expect(relabel.status).toBe(403);
    // No read scope: it reads nothing, the audit included.
    const read = await gate(deps, 'GET', '/api/v1/audit', script(made.token));
    expect(read.refusal?.status).toBe(403);

    // Listed with its last use, never its secret.
    const listed = await listServiceTokensRoute(request('/api/v1/tokens', 'GET', { cookie: admin }), deps);
    const text = await listed.text();
    expect(text).not.toContain(secret);
    const entry = (JSON.parse(text) as { tokens: { id: string; lastUsedAt: string | null }[] }).tokens.find((token) => token.id === made.id);
    expect(entry?.lastUsedAt).not.toBeNull();

    // Revoked: refused at the gate (401) and by the route.
    const revoked = await revokeServiceTokenRoute(
      request(`/api/v1/tokens/${made.id}`, 'DELETE', { ...SAME, cookie: admin }, { reason: 'rotated' }),
      made.id,
      deps,
    );
    expect(revoked.status).toBe(200);
    expect((await gate(deps, 'POST', `/api/v1/schedulers/${payments}/intent`, script(made.token))).refusal?.status).toBe(401);
    const enable = await intentRoute(
      request(`/api/v1/schedulers/${payments}/intent`, 'POST', script(made.token), { disabled: false, reason: 'after revocation' }),
      payments,
      deps,
    );
    expect(enable.status).toBe(403);
    expect(await intentRows(pool, payments)).toHaveLength(1);
    // A made-up secret for a real id, and a malformed token: refused alike.
    expect((await gate(deps, 'GET', '/api/v1/schedulers', script(`lbs_${made.id}.${'A'.repeat(43)}`))).refusal?.status).toBe(401);
    expect((await gate(deps, 'GET', '/api/v1/schedulers', script('lbs_nonsense'))).refusal?.status).toBe(401);
  });

  it('made-up service tokens from one client: 401 until its budget is spent, then 429 with Retry-After and no lookup; a real token from another client still reads', async () => {
    const deps = depsFor(pool, 'none');
    const admin = await signIn(deps, 'root');
    const made = (await (
      await createServiceTokenRoute(
        request(
          '/api/v1/tokens',
          'POST',
          { ...SAME, cookie: admin },
          { name: `flood-${uniqueLease('f').slice(-6)}`, scopes: ['read'], selector: '', reason: 'x' },
        ),
        deps,
      )
    ).json()) as { token: string };
    refusals = tokenRefusals('service token', () => {}, { failures: 5, windowS: 60 });
    let lookups = 0;
    const store = deps.serviceTokens!;
    const counted = { ...deps, serviceTokens: { authenticate: (presented: PresentedServiceToken) => (lookups++, store.authenticate(presented)) } };
    // A real token's use gives its point back: any number of them never spends the budget.
    for (let i = 0; i < 8; i++) expect((await gate(counted, 'GET', '/api/v1/schedulers', from('198.51.100.9', script(made.token)))).refusal).toBeNull();
    const madeUp = (i: number) => script(`lbs_${i.toString(16).padStart(12, '0')}.${'A'.repeat(43)}`);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await gate(counted, 'GET', '/api/v1/schedulers', from('198.51.100.66', madeUp(i)))).refusal!.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(lookups).toBe(8 + 5); // the eight real uses and five made-up: nothing looked up past the budget
    const blocked = (await gate(counted, 'GET', '/api/v1/schedulers', from('198.51.100.66', script(made.token)))).refusal!;
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await gate(counted, 'GET', '/api/v1/schedulers', from('198.51.100.9', script(made.token)))).refusal).toBeNull();
    refusals = tokenRefusals('service token', () => {});
  });

  it('a read token reads, and with LEASEBOARD_ANONYMOUS=none nothing else does; only admins manage tokens; names and the cap are checked', async () => {
    const deps = depsFor(pool, 'none');
    const admin = await signIn(deps, 'root');
    const name = `reader-${uniqueLease('r').slice(-6)}`;
    const made = (await (
      await createServiceTokenRoute(
        request('/api/v1/tokens', 'POST', { ...SAME, cookie: admin }, { name, scopes: ['read'], selector: '', reason: 'dashboards' }),
        deps,
      )
    ).json()) as { id: string; token: string };
    expect((await gate(deps, 'GET', '/api/v1/audit', script(made.token))).refusal).toBeNull();
    expect((await gate(deps, 'GET', '/api/v1/audit', {})).refusal?.status).toBe(401);
    // Its writes: none (no scope).
    const target = await scheduler(pool, 'tok-read', 'payments');
    expect((await disable(deps, target, script(made.token))).status).toBe(403);
    // The same live name again: 409; bad input: 400.
    const again = await createServiceTokenRoute(
      request('/api/v1/tokens', 'POST', { ...SAME, cookie: admin }, { name, scopes: ['read'], selector: '', reason: 'x' }),
      deps,
    );
    expect(again.status).toBe(409);
    for (const body of [
      { name, scopes: ['read'], reason: 'no target' },
      { name: 'x2', scopes: ['root'], selector: '', reason: 'x' },
      { name: 'x3', scopes: ['read'], selector: 'team in (a', reason: 'x' },
      { name: 'Alice@Example.org', scopes: ['read'], selector: '', reason: 'x' },
    ]) {
      expect((await createServiceTokenRoute(request('/api/v1/tokens', 'POST', { ...SAME, cookie: admin }, body), deps)).status).toBe(400);
    }
    // Not an admin: an operator (the ops group), a token, nobody.
    const operator = await signIn(deps, 'olga');
    const notAdmins: Record<string, string>[] = [{ cookie: operator }, script(made.token), {}];
    for (const headers of notAdmins) {
      expect((await listServiceTokensRoute(request('/api/v1/tokens', 'GET', headers), deps)).status).toBe(403);
      const body = { name: 'sneaky', scopes: ['intents'], selector: '', reason: 'x' };
      expect((await createServiceTokenRoute(request('/api/v1/tokens', 'POST', { ...SAME, ...headers }, body), deps)).status).toBe(403);
    }
    // Bounded: at most SERVICE_TOKENS_LIVE live tokens.
    await pool.query(
      `INSERT INTO service_tokens (id, name, scopes, selector, salt, secret_hmac, created_by, created_at)
       SELECT lpad(to_hex(g), 12, 'f'), 'filler-' || g, '{read}', '', '\\x00', '\\x00', 'test', now()
         FROM generate_series(1, $1 - (SELECT count(*)::int FROM service_tokens WHERE revoked_at IS NULL)) g`,
      [SERVICE_TOKENS_LIVE],
    );
    const full = await createServiceTokenRoute(
      request('/api/v1/tokens', 'POST', { ...SAME, cookie: admin }, { name: 'one-more', scopes: ['read'], selector: '', reason: 'x' }),
      deps,
    );
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe('too_many_tokens');
    await pool.query(`DELETE FROM service_tokens WHERE name LIKE 'filler-%'`);
    // Bounded: a token revoked longer ago than the kept days is deleted by the next create.
    await revokeServiceTokenRoute(request(`/api/v1/tokens/${made.id}`, 'DELETE', { ...SAME, cookie: admin }, { reason: 'done' }), made.id, deps);
    await pool.query(`UPDATE service_tokens SET revoked_at = revoked_at - $2 * interval '1 day' - interval '1 hour' WHERE id = $1`, [
      made.id,
      SERVICE_TOKENS_REVOKED_KEPT_DAYS,
    ]);
    const next = await createServiceTokenRoute(
      request('/api/v1/tokens', 'POST', { ...SAME, cookie: admin }, { name: `${name}-2`, scopes: ['read'], schedulers: [target], reason: 'x' }),
      deps,
    );
    expect(next.status).toBe(201);
    expect((await pool.query('SELECT 1 FROM service_tokens WHERE id = $1', [made.id])).rowCount).toBe(0);
    expect((await pool.query(`SELECT action FROM service_token_audit WHERE token_id = $1 ORDER BY id`, [made.id])).rows).toEqual([
      { action: 'create' },
      { action: 'revoke' },
    ]);
  });
});

describe('an operator role limited to a selector (LEASEBOARD_OIDC_ROLES payments=operator[team=payments])', () => {
  const pool = usePool();

  it('the payments group operates team=payments only; an unlimited operator group operates any', async () => {
    const deps = depsFor(pool, 'viewer');
    const pat = await signIn(deps, 'pat');
    const payments = await scheduler(pool, 'sel-pay', 'payments');
    const search = await scheduler(pool, 'sel-search', 'search');
    expect((await disable(deps, payments, { ...SAME, cookie: pat })).status).toBe(200);
    expect(await intentRows(pool, payments)).toEqual([{ disabled: true, by: 'pat', identified_by: 'sso' }]);
    const refused = await disable(deps, search, { ...SAME, cookie: pat });
    expect(refused.status).toBe(403);
    expect(await intentRows(pool, search)).toEqual([]);
    // Relabelling another team's scheduler into payments would widen the limit: labels need an unlimited operator.
    const relabel = await labelsRoute(
      request(`/api/v1/schedulers/${search}/labels`, 'PUT', { ...SAME, cookie: pat }, { labels: { team: 'payments' }, reason: 'mine now' }),
      search,
      deps,
    );
    expect(relabel.status).toBe(403);
    const olga = await signIn(deps, 'olga');
    expect((await disable(deps, search, { ...SAME, cookie: olga })).status).toBe(200);
  });
});

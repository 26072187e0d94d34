// OpenID Connect sign-in end to end against a real provider (oidc-provider,
// started here over HTTP) and the run's database: the code flow with PKCE,
// state and nonce; groups → roles; a user removed from a group loses the
// operator role at the next refresh; a tampered state or nonce signs nobody
// in; LEASEBOARD_ANONYMOUS=none refuses reads but not healthz; sign-out ends
// the session here and points at the provider's end-session endpoint.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

import type { Pool } from 'pg';
import { usePool, uniqueLease } from '../../../db/testing/pools';
import { intentRoute } from '../../actions/http';
import type { ActionDeps } from '../../actions/http';
import { oidcCallbackRoute, oidcLoginRoute } from '../../actions/oidc-routes';
import { sessionRoute, signOutRoute } from '../../actions/session-routes';
import { signInLimiter } from '../../actions/sign-in-limit';
import { register } from '../../server/testing/seed';
import { parseProxyTrust } from '../../http/proxies';
import { tokenRefusals } from '../../http/token-refusals';
import { checkAccess } from '../access';
import { parseAuthConfig } from '../config';
import { pgSessionStore } from '../session-store';
import { CLIENT_ID, CLIENT_SECRET, signInAtProvider, startProvider, type TestProvider } from './testing/provider';
import { seal, unseal } from './sealed';

const PUBLIC = 'http://leaseboard.test';
const REDIRECT = `${PUBLIC}/api/v1/session/oidc/callback`;
const SECRET = 'oidc-test-session-secret-0123456789abcdef';
const SAME = { host: 'leaseboard.test', origin: PUBLIC, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
const MINUTE = 60_000;

let provider: TestProvider;
beforeAll(async () => {
  provider = await startProvider({
    redirectUri: REDIRECT,
    postLogoutUri: `${PUBLIC}/`,
    accounts: { alice: ['payments'], root: ['sre-admins'], bob: ['marketing'] },
  });
});
afterAll(() => provider?.close());

/** The access check's sources beside the actions' (a budget of bad service tokens, no trusted proxy). */
const accessOf = (deps: ActionDeps) => ({ ...deps, serviceTokenRefusals: tokenRefusals('service token', () => {}), trust: parseProxyTrust({}) });

function depsFor(pool: Pool, anonymous: 'viewer' | 'none', clock: { now: number }): ActionDeps {
  const auth = parseAuthConfig({
    LEASEBOARD_PUBLIC_URL: PUBLIC,
    LEASEBOARD_SESSION_SECRET: SECRET,
    LEASEBOARD_OIDC_ISSUER: provider.issuer,
    LEASEBOARD_OIDC_CLIENT_ID: CLIENT_ID,
    LEASEBOARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    LEASEBOARD_OIDC_ROLES: 'sre-admins=admin,payments=operator',
    LEASEBOARD_ANONYMOUS: anonymous,
  });
  return { auth, sessions: pgSessionStore(pool), signIns: signInLimiter(() => {}), writer: pool, nowMs: () => clock.now, basePath: '' };
}

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`));

/** Starts a sign-in here, walks the provider's pages as `login`, and returns the callback URL and the sign-in cookie. */
async function throughProvider(deps: ActionDeps, login: string) {
  const started = await oidcLoginRoute('/schedulers', deps);
  expect(started.status).toBe(303);
  const location = new URL(started.headers.get('location')!);
  expect(location.origin).toBe(provider.issuer);
  expect(location.searchParams.get('code_challenge_method')).toBe('S256');
  expect(location.searchParams.get('state')).toBeTruthy();
  expect(location.searchParams.get('nonce')).toBeTruthy();
  const flow = cookieOf(started, 'leaseboard_oidc_flow')!;
  expect(flow).toBeTruthy();
  const callback = await signInAtProvider(location.href, login, REDIRECT);
  return { callback, flow };
}

async function signIn(deps: ActionDeps, login: string) {
  const { callback, flow } = await throughProvider(deps, login);
  const done = await oidcCallbackRoute(new Request(callback, { headers: { cookie: flow } }), deps);
  return done;
}

async function whoAmI(deps: ActionDeps, cookie: string) {
  return (await (await sessionRoute(new Request(`${PUBLIC}/api/v1/session`, { headers: { cookie } }), deps)).json()) as {
    role: string;
    who: string | null;
    via: string;
  };
}

const openSessions = async (pool: Pool, who: string) =>
  (await pool.query('SELECT count(*)::int AS n FROM operator_sessions WHERE who = $1', [who])).rows[0].n as number;

describe('OpenID Connect sign-in', () => {
  const pool = usePool();

  it('signs in through the provider, maps groups to roles, and audits the username', async () => {
    const deps = depsFor(pool, 'viewer', { now: Date.now() });
    const done = await signIn(deps, 'alice');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/schedulers');
    const session = cookieOf(done, 'leaseboard_oidc')!;
    expect(done.headers.getSetCookie().join('\n')).toMatch(/leaseboard_oidc=[^;]+;.*HttpOnly.*SameSite=Lax/);
    expect(await whoAmI(deps, session)).toMatchObject({ role: 'operator', who: 'alice', via: 'oidc' });

    const name = uniqueLease('oidc');
    await register(pool, name);
    const write = await intentRoute(
      new Request(`${PUBLIC}/api/v1/schedulers/${name}/intent`, {
        method: 'POST',
        headers: { ...SAME, cookie: session },
        body: JSON.stringify({ disabled: true, reason: 'maintenance' }),
      }),
      name,
      deps,
    );
    expect(write.status).toBe(200);
    const audit = await pool.query('SELECT by, identified_by FROM intent_audit WHERE lease = $1', [name]);
    expect(audit.rows).toEqual([{ by: 'alice', identified_by: 'sso' }]);

    const admin = cookieOf(await signIn(deps, 'root'), 'leaseboard_oidc')!;
    expect(await whoAmI(deps, admin)).toMatchObject({ role: 'admin', who: 'root' });
    // A group mapped to no role reads only, while anonymous viewing is allowed.
    const viewer = cookieOf(await signIn(deps, 'bob'), 'leaseboard_oidc')!;
    expect(await whoAmI(deps, viewer)).toMatchObject({ role: 'viewer', who: 'bob', via: 'oidc' });
  });

  it('a user removed from a group keeps the role until the next refresh, and loses it then', async () => {
    const clock = { now: Date.now() };
    const deps = depsFor(pool, 'viewer', clock);
    provider.groups.set('carol', ['payments']);
    const session = cookieOf(await signIn(deps, 'carol'), 'leaseboard_oidc')!;
    expect(await whoAmI(deps, session)).toMatchObject({ role: 'operator', who: 'carol' });

    provider.groups.set('carol', []);
    clock.now += 14 * MINUTE;
    expect((await whoAmI(deps, session)).role).toBe('operator'); // within LEASEBOARD_OIDC_REFRESH_EVERY (15m)
    clock.now += 2 * MINUTE;
    // Due a refresh: not signed in until refreshed — never the old role.
    expect(await whoAmI(deps, session)).toMatchObject({ role: 'viewer', via: 'anonymous' });
    const verdict = await checkAccess(accessOf(deps), { method: 'GET', pathname: '/', search: '', headers: new Headers({ cookie: session }) }, clock.now);
    expect(verdict.refusal).toBeNull();
    const refreshed = verdict.cookieHeader!;
    expect(verdict.setCookies.join('\n')).toMatch(/leaseboard_oidc=[^;]+/);
    expect(await whoAmI(deps, refreshed)).toMatchObject({ role: 'viewer', who: 'carol', via: 'oidc' });

    const name = uniqueLease('oidc-refresh');
    await register(pool, name);
    const write = await intentRoute(
      new Request(`${PUBLIC}/api/v1/schedulers/${name}/intent`, {
        method: 'POST',
        headers: { ...SAME, cookie: refreshed },
        body: JSON.stringify({ disabled: true, reason: 'x' }),
      }),
      name,
      deps,
    );
    expect(write.status).toBe(403);
  });

  it('refuses a tampered state or nonce, and signs nobody in', async () => {
    const deps = depsFor(pool, 'viewer', { now: Date.now() });
    provider.groups.set('dave', ['payments']);
    const before = await openSessions(pool, 'dave');

    const forState = await throughProvider(deps, 'dave');
    const badState = new URL(forState.callback);
    badState.searchParams.set('state', 'tampered-state');
    const stateRefused = await oidcCallbackRoute(new Request(badState, { headers: { cookie: forState.flow } }), deps);
    expect(stateRefused.status).toBe(400);
    expect(((await stateRefused.json()) as { error: { code: string } }).error.code).toBe('sign_in_failed');
    expect(cookieOf(stateRefused, 'leaseboard_oidc')).toBeUndefined();

    // The right state and PKCE verifier, but another nonce than the ID token carries.
    const forNonce = await throughProvider(deps, 'dave');
    const value = forNonce.flow.slice('leaseboard_oidc_flow='.length);
    const now = Date.now();
    const claims = (await unseal(new TextEncoder().encode(SECRET), 'oidc-flow', value, now))!;
    const forged = await seal(new TextEncoder().encode(SECRET), 'oidc-flow', { ...claims, nn: 'tampered-nonce' }, now + MINUTE, now);
    const nonceRefused = await oidcCallbackRoute(new Request(forNonce.callback, { headers: { cookie: `leaseboard_oidc_flow=${forged}` } }), deps);
    expect(nonceRefused.status).toBe(400);
    expect(cookieOf(nonceRefused, 'leaseboard_oidc')).toBeUndefined();

    // A flow cookie changed by one character does not open at all. A middle one: base64url's last character may
    // carry only padding bits, and changing those changes no byte (the sealed value opened, one run in a few).
    const forCookie = await throughProvider(deps, 'dave');
    const at = Math.floor((forCookie.flow.length + 'leaseboard_oidc_flow='.length) / 2);
    const flipped = forCookie.flow.slice(0, at) + (forCookie.flow[at] === 'A' ? 'B' : 'A') + forCookie.flow.slice(at + 1);
    const cookieRefused = await oidcCallbackRoute(new Request(forCookie.callback, { headers: { cookie: flipped } }), deps);
    expect(cookieRefused.status).toBe(400);

    expect(await openSessions(pool, 'dave')).toBe(before);
  });

  it('with LEASEBOARD_ANONYMOUS=none: reads need sign-in, healthz does not, and an unmapped group gets no session', async () => {
    const clock = { now: Date.now() };
    const deps = depsFor(pool, 'none', clock);
    const access = (pathname: string, cookie = '') =>
      checkAccess(accessOf(deps), { method: 'GET', pathname, search: '', headers: new Headers(cookie ? { cookie } : {}) }, clock.now);

    const api = (await access('/api/v1/schedulers')).refusal!;
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect((await access('/api/v1/audit')).refusal?.status).toBe(401);
    const page = (await access('/schedulers/x')).refusal!;
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/login?next=%2Fschedulers%2Fx');
    expect((await access('/api/healthz')).refusal).toBeNull();
    expect((await access('/api/v1/session/oidc/login')).refusal).toBeNull();

    const bob = await signIn(deps, 'bob');
    expect(bob.status).toBe(403);
    expect(cookieOf(bob, 'leaseboard_oidc')).toBeUndefined();

    const alice = cookieOf(await signIn(deps, 'alice'), 'leaseboard_oidc')!;
    expect((await access('/api/v1/schedulers', alice)).refusal).toBeNull();
    expect((await access('/api/v1/audit', alice)).refusal).toBeNull();
  });

  it('sign-out ends the session here and names the provider’s end-session URL', async () => {
    const deps = depsFor(pool, 'viewer', { now: Date.now() });
    const session = cookieOf(await signIn(deps, 'alice'), 'leaseboard_oidc')!;
    const out = await signOutRoute(new Request(`${PUBLIC}/api/v1/session`, { method: 'DELETE', headers: { ...SAME, cookie: session } }), deps);
    expect(out.status).toBe(200);
    const body = (await out.json()) as { providerSignOut: string | null; role: string };
    expect(body.role).toBe('viewer');
    const endSession = new URL(body.providerSignOut!);
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC}/`);
    expect(out.headers.getSetCookie().join('\n')).toMatch(/leaseboard_oidc=;.*Max-Age=0/);
    // The cookie replayed after sign-out counts for nothing.
    expect(await whoAmI(deps, session)).toMatchObject({ role: 'viewer', via: 'anonymous' });
  });
});

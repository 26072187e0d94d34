import { afterEach, describe, expect, it } from 'vitest';
import { enablePeerStamping, PEER_HEADER } from '../http/peer';
import { type AuthConfig, AuthConfigError, parseAuthConfig } from './config';
import { ACTION_HEADER, checkSameOrigin } from './csrf';
import { authorizeWrite } from './guard';
import { resolveIdentity } from './identity';
import { issueSession, SECURE_SESSION_COOKIE, SESSION_COOKIE, sessionCookie, tokenMatches } from './session';
import { memorySessions } from './testing/memory-sessions';

const TOKEN = 'operator-token-of-at-least-24-characters';
const NOW = Date.parse('2026-12-01T12:00:00Z');
const sso = {
  LEASEBOARD_AUTH_HEADER: 'X-Forwarded-Email',
  LEASEBOARD_AUTH_GROUPS_HEADER: 'x-forwarded-groups',
  LEASEBOARD_TRUSTED_PROXIES: '10.0.0.0/24, 192.168.1.7',
  LEASEBOARD_OPERATORS: 'Alice@Example.org',
  LEASEBOARD_OPERATOR_GROUPS: 'sre',
};

const headers = (entries: Record<string, string>) => new Headers(entries);
/** The config with a fresh set of open sessions. */
const sources = (auth: AuthConfig) => ({ auth, sessions: memorySessions() });

afterEach(() => {
  delete process.env.LEASEBOARD_PEER_STAMP_KEY;
});

describe('auth config', () => {
  it('with nothing configured, there is no proxy identity and no local sign-in', () => {
    const config = parseAuthConfig({});
    expect(config.proxies.identity).toBeNull();
    expect(config.operatorToken).toBeNull();
  });

  it.each([
    [{ LEASEBOARD_AUTH_HEADER: 'x-forwarded-email' }, 'LEASEBOARD_TRUSTED_PROXIES'],
    [{ LEASEBOARD_AUTH_HEADER: 'x forwarded', LEASEBOARD_TRUSTED_PROXIES: '10.0.0.1' }, 'LEASEBOARD_AUTH_HEADER'],
    [{ LEASEBOARD_AUTH_HEADER: 'x-email', LEASEBOARD_TRUSTED_PROXIES: 'not-an-ip' }, 'LEASEBOARD_TRUSTED_PROXIES'],
    [{ LEASEBOARD_OPERATORS: 'alice, not an email' }, 'LEASEBOARD_OPERATORS'],
    [{ LEASEBOARD_OPERATOR_TOKEN: 'short' }, 'LEASEBOARD_OPERATOR_TOKEN'],
    [{ LEASEBOARD_SESSION_SECRET: 'short' }, 'LEASEBOARD_SESSION_SECRET'],
    [{ LEASEBOARD_SESSION_TTL: '5ms' }, 'LEASEBOARD_SESSION_TTL'],
    [{ LEASEBOARD_PUBLIC_ORIGIN: 'not a url' }, 'LEASEBOARD_PUBLIC_ORIGIN'],
    [{ LEASEBOARD_PUBLIC_URL: 'ftp://board.example.org' }, 'LEASEBOARD_PUBLIC_URL'],
    [{ LEASEBOARD_AUTH_HEADER: 'x-email', LEASEBOARD_TRUSTED_PROXIES: '127.0.0.1' }, 'LEASEBOARD_TRUSTED_PROXIES'],
    [{ LEASEBOARD_AUTH_HEADER: 'x-email', LEASEBOARD_TRUSTED_PROXIES: '10.0.0.0/16' }, 'LEASEBOARD_TRUSTED_PROXIES'],
    [{ LEASEBOARD_AUTH_HEADER: 'x-email', LEASEBOARD_TRUSTED_PROXIES: 'fd00::/64' }, 'LEASEBOARD_TRUSTED_PROXIES'],
    [{ LEASEBOARD_AUTH_HEADER: 'x-email', LEASEBOARD_TRUSTED_PROXIES: 'loopback' }, 'LEASEBOARD_TRUSTED_PROXIES'],
  ])('refuses %o naming %s, without echoing the value', (env, variable) => {
    const parse = () => parseAuthConfig(env);
    expect(parse).toThrow(AuthConfigError);
    try {
      parse();
    } catch (error) {
      expect((error as AuthConfigError).variable).toBe(variable);
      expect((error as Error).message).not.toContain('short');
    }
  });
});

describe('same-origin gate (CSRF)', () => {
  const config = parseAuthConfig({});
  const ok = { [ACTION_HEADER]: '1', host: 'board.internal:3000' };

  it.each([
    ['a browser POST from this origin', { ...ok, origin: 'http://board.internal:3000', 'sec-fetch-site': 'same-origin' }, true],
    ['a non-browser client with the action header (no Origin, no Sec-Fetch-Site)', ok, true],
    [
      'behind the ingress: Origin matches X-Forwarded-Host',
      { ...ok, host: '10.1.2.3:3000', 'x-forwarded-host': 'board.example.org', origin: 'https://board.example.org' },
      true,
    ],
    ['no action header (a plain HTML form from anywhere)', { host: 'board.internal:3000', origin: 'http://board.internal:3000' }, false],
    ['cross-site fetch metadata', { ...ok, 'sec-fetch-site': 'cross-site' }, false],
    ['same-site but not same-origin', { ...ok, 'sec-fetch-site': 'same-site' }, false],
    ['another origin', { ...ok, origin: 'https://evil.example' }, false],
    ['an unreadable Origin', { ...ok, origin: 'null' }, false],
  ])('%s → %s', (_what, entries, allowed) => {
    expect(checkSameOrigin(config, headers(entries)).ok).toBe(allowed);
  });

  it.each([
    ['LEASEBOARD_PUBLIC_URL', { LEASEBOARD_PUBLIC_URL: 'https://board.example.org/leaseboard' }, []],
    ['its deprecated alias LEASEBOARD_PUBLIC_ORIGIN', { LEASEBOARD_PUBLIC_ORIGIN: 'https://board.example.org/' }, [/LEASEBOARD_PUBLIC_ORIGIN is deprecated/]],
    [
      'its deprecated alias LEASEBOARD_EXTERNAL_URL',
      { LEASEBOARD_EXTERNAL_URL: 'https://board.example.org/leaseboard' },
      [/LEASEBOARD_EXTERNAL_URL is deprecated/],
    ],
  ])('a configured public URL (%s) wins over Host', (_what, env, notes) => {
    const behind = parseAuthConfig(env);
    expect(checkSameOrigin(behind, headers({ ...ok, origin: 'https://board.example.org' })).ok).toBe(true);
    expect(checkSameOrigin(behind, headers({ ...ok, origin: 'http://board.internal:3000' })).ok).toBe(false);
    expect(behind.notes).toEqual(notes.map((note) => expect.stringMatching(note)));
  });
});

describe('identity', () => {
  it('without any identity, a visitor is an anonymous viewer', async () => {
    expect(await resolveIdentity(sources(parseAuthConfig(sso)), headers({}), NOW)).toEqual({ role: 'viewer', who: null, via: 'anonymous' });
  });

  it('the SSO header counts only from a trusted proxy address (stamped by our server)', async () => {
    const config = sources(parseAuthConfig(sso));
    const stamp = enablePeerStamping();
    const from = (peer: string, extra: Record<string, string> = {}) =>
      headers({ [PEER_HEADER]: stamp(peer), 'x-forwarded-email': 'alice@example.org', ...extra });
    expect(await resolveIdentity(config, from('10.0.0.40'), NOW)).toEqual({ role: 'operator', who: 'alice@example.org', via: 'proxy', grant: null });
    expect(await resolveIdentity(config, from('::ffff:192.168.1.7'), NOW)).toMatchObject({ role: 'operator' });
    // Given a forged header from an untrusted address, then it is ignored.
    expect(await resolveIdentity(config, from('127.0.0.1'), NOW)).toMatchObject({ role: 'viewer', via: 'anonymous' });
    expect(await resolveIdentity(config, from('192.168.1.8'), NOW)).toMatchObject({ role: 'viewer', via: 'anonymous' });
  });

  it('a peer stamp the client made up (wrong key, or no server stamping) counts for nothing', async () => {
    const config = sources(parseAuthConfig(sso));
    const forged = headers({ [PEER_HEADER]: 'guessed-key 10.0.0.1', 'x-forwarded-email': 'alice@example.org' });
    expect(await resolveIdentity(config, forged, NOW)).toMatchObject({ role: 'viewer', via: 'anonymous' });
    enablePeerStamping();
    expect(await resolveIdentity(config, forged, NOW)).toMatchObject({ role: 'viewer', via: 'anonymous' });
  });

  it('roles come from configuration: operator by email or group, viewer otherwise', async () => {
    const config = sources(parseAuthConfig(sso));
    const stamp = enablePeerStamping();
    const as = (email: string, groups = '') =>
      resolveIdentity(config, headers({ [PEER_HEADER]: stamp('10.0.0.9'), 'x-forwarded-email': email, 'x-forwarded-groups': groups }), NOW);
    expect(await as('bob@example.org')).toEqual({ role: 'viewer', who: 'bob@example.org', via: 'proxy' });
    expect(await as('bob@example.org', 'dev, sre')).toMatchObject({ role: 'operator', who: 'bob@example.org' });
  });

  it('a signed session cookie makes an operator; a tampered or expired one does not', async () => {
    const config = sources(parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN, LEASEBOARD_SESSION_TTL: '1m' }));
    const { value } = await issueSession(config, 'carol', NOW);
    const withCookie = (cookie: string) => headers({ cookie: `other=1; ${SESSION_COOKIE}=${cookie}` });
    expect(await resolveIdentity(config, withCookie(value), NOW + 1_000)).toEqual({ role: 'operator', who: 'carol', via: 'session', grant: null });
    expect(await resolveIdentity(config, withCookie(`${value.slice(0, -2)}xx`), NOW)).toMatchObject({ role: 'viewer' });
    expect(await resolveIdentity(config, withCookie(value), NOW + 61_000)).toMatchObject({ role: 'viewer' });
    const otherSecret = { ...config, auth: parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN }) };
    expect(await resolveIdentity(otherSecret, withCookie(value), NOW)).toMatchObject({ role: 'viewer' });
  });

  it('a session ends when it is signed out, and every session ends when the operator token is rotated', async () => {
    const secret = 's'.repeat(40);
    const config = sources(parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN, LEASEBOARD_SESSION_SECRET: secret }));
    const first = await issueSession(config, 'carol', NOW);
    const second = await issueSession(config, 'dave', NOW);
    const withCookie = (value: string) => headers({ cookie: `${SESSION_COOKIE}=${value}` });
    await config.sessions.revoke(first.session.id);
    expect(await resolveIdentity(config, withCookie(first.value), NOW)).toMatchObject({ role: 'viewer' });
    expect(await resolveIdentity(config, withCookie(second.value), NOW)).toMatchObject({ role: 'operator', who: 'dave' });
    // Same secret, same open sessions, a new token: the old token's sessions count for nothing.
    const rotated = { ...config, auth: parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: `${TOKEN}-rotated`, LEASEBOARD_SESSION_SECRET: secret }) };
    expect(await resolveIdentity(rotated, withCookie(second.value), NOW)).toMatchObject({ role: 'viewer' });
  });

  it('a session store that cannot be read fails closed: the visitor is a viewer', async () => {
    const config = sources(parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN }));
    const { value } = await issueSession(config, 'carol', NOW);
    const broken = { ...config, sessions: { ...config.sessions, isOpen: () => Promise.reject(new Error('store down')) } };
    expect(await resolveIdentity(broken, headers({ cookie: `${SESSION_COOKIE}=${value}` }), NOW)).toMatchObject({ role: 'viewer' });
  });

  it('the operator token matches only itself', () => {
    const config = parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN });
    expect(tokenMatches(config, TOKEN)).toBe(true);
    expect(tokenMatches(config, `${TOKEN}x`)).toBe(false);
    expect(tokenMatches(parseAuthConfig({}), TOKEN)).toBe(false);
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Strict and scoped to the base path over plain http', async () => {
    const config = parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN, LEASEBOARD_PUBLIC_URL: 'http://board.internal:3000/ops/leaseboard' });
    const { value } = await issueSession(sources(config), 'carol', NOW);
    const plain = sessionCookie(config, value, '/ops/leaseboard');
    expect(plain).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(plain).toContain('HttpOnly');
    expect(plain).toContain('SameSite=Strict');
    expect(plain).toContain('Path=/ops/leaseboard');
    expect(plain).toContain(`Max-Age=${12 * 3600}`);
    expect(plain).not.toContain('Secure');
  });

  it('is Secure with the __Host- prefix (so Path=/, no Domain) when the public URL is https — never from request headers', async () => {
    const config = parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN, LEASEBOARD_PUBLIC_URL: 'https://board.example.org/ops/leaseboard' });
    const { value } = await issueSession(sources(config), 'carol', NOW);
    const secure = sessionCookie(config, value, '/ops/leaseboard');
    expect(secure).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=`));
    expect(secure).toContain('Secure');
    expect(secure).toContain('Path=/;');
    expect(secure).not.toContain('Domain');
    // Without a public URL, a proxy's X-Forwarded-Proto is not believed: the cookie is not Secure.
    expect(sessionCookie(parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN }), value, '')).not.toContain('Secure');
  });
  it('carries no unsalted digest of the operator token: its generation is keyed with the session secret', async () => {
    const { createHash } = await import('node:crypto');
    const { decodeJwt } = await import('jose');
    const withSecret = (secret: string) => parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN, LEASEBOARD_SESSION_SECRET: secret });
    const issued = await issueSession(sources(withSecret('s'.repeat(32))), 'carol', NOW);
    const { gen } = decodeJwt(issued.value);
    const plain = createHash('sha256').update(`leaseboard-token-generation:${TOKEN}`).digest('base64url');
    expect(typeof gen).toBe('string');
    expect(plain.startsWith(gen as string)).toBe(false);
    expect(
      createHash('sha256')
        .update(TOKEN)
        .digest('base64url')
        .startsWith(gen as string),
    ).toBe(false);
    // Another server secret, another generation: a guess cannot be checked without the secret.
    expect(withSecret('t'.repeat(32)).tokenGeneration).not.toBe(withSecret('s'.repeat(32)).tokenGeneration);
    expect(withSecret('s'.repeat(32)).tokenGeneration).toBe(gen);
  });
});

describe('write gate', () => {
  it('refuses cross-site first, then viewers; lets a same-origin operator through', async () => {
    const config = sources(parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: TOKEN }));
    const { value } = await issueSession(config, 'carol', NOW);
    const same = { [ACTION_HEADER]: '1', host: 'h', origin: 'http://h', 'sec-fetch-site': 'same-origin' };
    const crossSite = await authorizeWrite(
      config,
      headers({ ...same, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie: `${SESSION_COOKIE}=${value}` }),
      NOW,
    );
    expect(crossSite).toMatchObject({ ok: false, refusal: { status: 403, code: 'cross_site' } });
    expect(await authorizeWrite(config, headers(same), NOW)).toMatchObject({ ok: false, refusal: { status: 403, code: 'forbidden' } });
    expect(await authorizeWrite(config, headers({ ...same, cookie: `${SESSION_COOKIE}=${value}` }), NOW)).toMatchObject({
      ok: true,
      identity: { role: 'operator', who: 'carol' },
    });
  });
});

/**
 * Who may read at all (LEASEBOARD_ANONYMOUS), decided once per request in
 * front of every route — and the moment an OpenID Connect session whose role
 * is due is refreshed.
 *
 * Guarantees
 * - With `viewer` (the default) everyone reads; with `none` only health
 *   checks, the sign-in pages and routes, static assets and the progress
 *   ingest (authenticated by its report tokens) answer without a signed-in
 *   identity: an API path gets 401 `{ error: { code: 'unauthorized' } }`, a
 *   page a 303 to the sign-in page. Metrics are not exempt: they carry
 *   scheduler names and state and have no protection of their own.
 * - A request carrying a service token (`Authorization: Bearer lbs_…`) is
 *   decided by it alone, whatever the setting: one that does not verify
 *   (malformed, unknown, revoked) gets 401, and a read by a token without the
 *   `read` scope gets 403 — a token never reads more than its scopes, the
 *   audit included. Its writes are checked by the route (./guard.ts).
 * - Each client has a budget of bad service tokens (lib/http/token-refusals.ts:
 *   20 per 60 s, a point spent before the lookup, given back by a proven
 *   token): past it, 429 with Retry-After before any lookup, so made-up
 *   tokens cannot hold the access check's two connections that every
 *   sign-in and session read needs.
 * - An OpenID Connect session whose role is due a refresh is refreshed here
 *   (./oidc/flow.ts) before anything reads it: the request goes on with the
 *   refreshed cookie, and the answer carries it; a session whose refresh
 *   failed goes on as not signed in, and its cookie is cleared.
 */
import { clientKey } from '../http/client-key';
import { type ProxyTrust, proxyTrust } from '../http/proxies';
import { type TokenRefusals, tokenRefusals } from '../http/token-refusals';
import { hasScope } from './grant';
import { presentedServiceToken } from './service-tokens';
import { resolveIdentity, serviceTokenIdentity, type AuthSources } from './identity';
import { clearedOidcSessionCookie, oidcSessionCookie, oidcSessionValue, withOidcSession } from './oidc/cookies';
import { readOidcSession, refreshSession } from './oidc/flow';

export interface AccessVerdict {
  /** The Cookie header the request goes on with (a refreshed or ended session), or null: unchanged. */
  cookieHeader: string | null;
  /** Set-Cookie values the answer must carry. */
  setCookies: string[];
  /** The answer to send instead of routing, or null: route the request. */
  refusal: Response | null;
}

const OPEN_EXACT = new Set([
  '/api/healthz',
  '/login',
  '/api/v1/session',
  '/api/v1/session/oidc/login',
  '/api/v1/session/oidc/callback',
  '/favicon.svg',
  '/favicon.ico',
  '/manifest.webmanifest',
  '/apple-touch-icon.png',
  '/icon-192.png',
  '/icon-512.png',
]);
const OPEN_PREFIX = ['/_next/static/', '/favicons/'];
const INGEST = /^\/api\/v1\/schedulers\/[^/]+\/reports$/;

/** Paths (without the base path) that answer without sign-in even with LEASEBOARD_ANONYMOUS=none. */
function openWithoutSignIn(method: string, pathname: string): boolean {
  if (OPEN_EXACT.has(pathname) || OPEN_PREFIX.some((prefix) => pathname.startsWith(prefix))) return true;
  return method === 'POST' && INGEST.test(pathname);
}

/** What the access check reads with: the identity sources, the base path, and whose bad service tokens are counted. */
export type AccessSources = AuthSources & { basePath: string; serviceTokenRefusals: TokenRefusals; trust: ProxyTrust };

/** What a server's access check keeps for its lifetime: the budget of bad service tokens, and the proxies trusted to name the client. */
export function accessBudget(): Pick<AccessSources, 'serviceTokenRefusals' | 'trust'> {
  return { serviceTokenRefusals: tokenRefusals('service token'), trust: proxyTrust() };
}

function refusal(status: 401 | 403 | 429, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

const unauthorized = () => refusal(401, 'unauthorized', 'sign in first: this dashboard allows no anonymous reading');

const READS = new Set(['GET', 'HEAD']);

/** The verdict for a request that carries a service token; null when it carries none. */
async function serviceTokenVerdict(sources: AccessSources, request: { method: string; pathname: string; headers: Headers }): Promise<AccessVerdict | null> {
  if (presentedServiceToken(request.headers.get('authorization')) === null) return null;
  const pass: AccessVerdict = { cookieHeader: null, setCookies: [], refusal: null };
  const caller = clientKey(sources.trust, request.headers);
  const blockedForS = await sources.serviceTokenRefusals.attempt(caller);
  if (blockedForS !== null) {
    return {
      ...pass,
      refusal: refusal(429, 'rate_limited', `too many refused service tokens from this client; retry in ${blockedForS} s`, {
        'retry-after': String(blockedForS),
      }),
    };
  }
  const identity = await serviceTokenIdentity(sources, request.headers);
  if (identity === null || identity === 'refused') {
    sources.serviceTokenRefusals.failed(caller);
    return {
      ...pass,
      refusal: refusal(401, 'unauthorized', 'this service token is not valid: malformed, unknown or revoked', { 'www-authenticate': 'Bearer' }),
    };
  }
  await sources.serviceTokenRefusals.proven(caller);
  if (READS.has(request.method) && !hasScope(identity.grant, 'read') && !openWithoutSignIn(request.method, request.pathname)) {
    return { ...pass, refusal: refusal(403, 'forbidden', `the service token ${identity.who} has no read scope`) };
  }
  return pass;
}

/** `pathname` without the base path; `search` with its `?`. */
export async function checkAccess(
  sources: AccessSources,
  request: { method: string; pathname: string; search: string; headers: Headers },
  nowMs: number,
): Promise<AccessVerdict> {
  const { auth } = sources;
  const byToken = await serviceTokenVerdict(sources, request);
  if (byToken !== null) return byToken;
  let cookieHeader: string | null = null;
  const setCookies: string[] = [];
  // An open OIDC session, current or just refreshed, is a signed-in identity: no second read of it below.
  let oidcSignedIn = false;
  if (auth.oidc !== null) {
    const original = request.headers.get('cookie');
    const found = await readOidcSession(sources, oidcSessionValue(auth, original), nowMs);
    oidcSignedIn = found !== null && !found.stale;
    if (found?.stale) {
      const refreshed = await refreshSession(sources, found.session, nowMs);
      cookieHeader = withOidcSession(auth, original, refreshed?.value ?? '');
      setCookies.push(refreshed ? oidcSessionCookie(auth, refreshed.value, sources.basePath) : clearedOidcSessionCookie(auth, sources.basePath));
      oidcSignedIn = refreshed !== null;
    }
  }
  if (oidcSignedIn || auth.anonymous === 'viewer' || openWithoutSignIn(request.method, request.pathname)) return { cookieHeader, setCookies, refusal: null };
  const headers = new Headers(request.headers);
  if (cookieHeader !== null) headers.set('cookie', cookieHeader);
  const identity = await resolveIdentity(sources, headers, nowMs);
  if (identity.via !== 'anonymous') return { cookieHeader, setCookies, refusal: null };
  if (request.pathname.startsWith('/api/')) return { cookieHeader, setCookies, refusal: unauthorized() };
  const next = encodeURIComponent(`${request.pathname}${request.search}`);
  return {
    cookieHeader,
    setCookies,
    refusal: new Response(null, { status: 303, headers: { location: `${sources.basePath}/login?next=${next}`, 'cache-control': 'no-store' } }),
  };
}

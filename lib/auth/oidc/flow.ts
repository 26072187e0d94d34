/**
 * OpenID Connect sign-in through openid-client: the authorization code flow
 * with PKCE (S256), state and nonce; the session it opens; its refresh.
 *
 * Guarantees
 * - A callback counts only with the sealed sign-in cookie this server set
 *   (./sealed.ts) and a provider answer whose state, nonce, PKCE verifier,
 *   issuer, audience and signature verify (openid-client); anything else is
 *   refused and nothing is signed in.
 * - A session is a row in `operator_sessions` (the same table as token
 *   sessions: sign-out or revocation ends it on every instance) and a sealed
 *   cookie holding the subject, the audit name, the role and the refresh
 *   token. It lasts LEASEBOARD_SESSION_TTL from sign-in, never longer: a
 *   refresh does not extend it.
 * - Its role holds for LEASEBOARD_OIDC_REFRESH_EVERY: then the session must be
 *   refreshed (`refreshSession`) — the refresh token is redeemed and the groups
 *   read again — before it counts again (`readOidcSession` says `stale`, and
 *   ../identity.ts treats a stale session as not signed in). A refresh that
 *   fails (token revoked, account disabled, no group left) ends the session.
 * - The audit name is the `preferred_username` claim when it is a plain name,
 *   else the subject: never the email claim or any other personal claim.
 * Not guaranteed: two instances refreshing the same session at the same
 *   moment with a provider that rotates refresh tokens and detects reuse: the
 *   provider may end that session (one instance coalesces its own refreshes).
 */
import * as client from 'openid-client';
import type { AuthConfig } from '../config';
import type { SessionStore } from '../session';
import type { OidcConfig } from './config';
import { groupsOf, type Role, roleFor, ROLES, selectorsFor } from './roles';
import { seal, unseal } from './sealed';

/** How long a started sign-in may take at the provider. */
export const SIGN_IN_WINDOW_MS = 10 * 60_000;
const MAX_NAME = 254;
const PLAIN_NAME = /^[^\u0000-\u001f\u007f@]{1,254}$/;

export interface OidcSession {
  id: string;
  sub: string;
  who: string;
  role: Role;
  /** The selectors an operator is limited to (./roles.ts), or null: unlimited. */
  selectors: string[] | null;
  refreshToken: string | null;
  refreshAtMs: number;
  expiresAtMs: number;
}

export interface OidcSources {
  auth: AuthConfig;
  sessions: SessionStore;
}

export type SignInRefusal = { status: 400 | 403; code: 'sign_in_failed' | 'forbidden'; message: string };

const configs = new Map<string, Promise<client.Configuration>>();

/** The provider's metadata, discovered once per process (a failed discovery is tried again next time). */
function providerConfiguration(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuer.href}\u0000${oidc.clientId}\u0000${oidc.clientSecret ?? ''}`;
  let found = configs.get(key);
  if (found === undefined) {
    const auth = oidc.clientSecret === null ? client.None() : client.ClientSecretBasic(oidc.clientSecret);
    found = client.discovery(oidc.issuer, oidc.clientId, undefined, auth, oidc.insecureIssuer ? { execute: [client.allowInsecureRequests] } : undefined);
    found.catch(() => configs.delete(key));
    configs.set(key, found);
  }
  return found;
}

function oidcOf(auth: AuthConfig): OidcConfig {
  if (auth.oidc === null) throw new Error('oidc: sign-in is off');
  return auth.oidc;
}

/** Starts a sign-in: where to send the browser, and the sealed cookie value that must come back with it. */
export async function beginSignIn(auth: AuthConfig, next: string, nowMs: number): Promise<{ url: URL; flow: string }> {
  const oidc = oidcOf(auth);
  const config = await providerConfiguration(oidc);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: oidc.redirectUrl,
    scope: oidc.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const flow = await seal(auth.sessionSecret, 'oidc-flow', { st: state, nn: nonce, cv: verifier, nx: next }, nowMs + SIGN_IN_WINDOW_MS, nowMs);
  return { url, flow };
}

async function claimsAndGroups(
  oidc: OidcConfig,
  config: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  sub: string,
) {
  const idClaims = (tokens.claims() ?? {}) as Record<string, unknown>;
  if (oidc.groupsClaim in idClaims) return { claims: idClaims, groups: groupsOf(idClaims, oidc.groupsClaim) };
  // Many providers put groups only in userinfo when an access token is issued.
  const info = (await client.fetchUserInfo(config, tokens.access_token, sub)) as Record<string, unknown>;
  return { claims: { ...info, ...idClaims }, groups: groupsOf(info, oidc.groupsClaim) };
}

function auditName(claims: Record<string, unknown>, sub: string): string {
  const name = claims.preferred_username;
  return typeof name === 'string' && PLAIN_NAME.test(name) ? name : sub.slice(0, MAX_NAME);
}

async function sealSession(auth: AuthConfig, session: OidcSession, nowMs: number): Promise<string> {
  const { id, sub, who, role, selectors, refreshToken, refreshAtMs, expiresAtMs } = session;
  return seal(auth.sessionSecret, 'oidc-session', { sid: id, sub, who, role, sel: selectors, rt: refreshToken, ra: refreshAtMs }, expiresAtMs, nowMs);
}

/** Finishes a sign-in at the callback: the verified session, or why not (nothing signed in). */
export async function completeSignIn(
  sources: OidcSources,
  callbackUrl: URL,
  flowValue: string | undefined,
  nowMs: number,
): Promise<{ ok: true; session: OidcSession; value: string; next: string } | { ok: false; refusal: SignInRefusal }> {
  const { auth } = sources;
  const oidc = oidcOf(auth);
  const flow = await unseal(auth.sessionSecret, 'oidc-flow', flowValue, nowMs);
  if (flow === null || typeof flow.st !== 'string' || typeof flow.nn !== 'string' || typeof flow.cv !== 'string') {
    return {
      ok: false,
      refusal: { status: 400, code: 'sign_in_failed', message: 'this sign-in was not started here or took longer than 10 min; start again' },
    };
  }
  const config = await providerConfiguration(oidc);
  let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  try {
    const current = new URL(oidc.redirectUrl);
    current.search = callbackUrl.search;
    tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.cv,
      expectedState: flow.st,
      expectedNonce: flow.nn,
      idTokenExpected: true,
    });
  } catch (error) {
    const why = error instanceof client.AuthorizationResponseError ? `the provider said ${error.error}` : 'state, nonce or code did not verify';
    return { ok: false, refusal: { status: 400, code: 'sign_in_failed', message: `sign-in refused: ${why}; nothing was signed in` } };
  }
  const sub = tokens.claims()?.sub;
  if (typeof sub !== 'string') return { ok: false, refusal: { status: 400, code: 'sign_in_failed', message: 'sign-in refused: no ID token subject' } };
  let found: Awaited<ReturnType<typeof claimsAndGroups>>;
  try {
    found = await claimsAndGroups(oidc, config, tokens, sub);
  } catch {
    return {
      ok: false,
      refusal: { status: 400, code: 'sign_in_failed', message: 'sign-in refused: the provider did not say which groups you are in (userinfo)' },
    };
  }
  const { claims, groups } = found;
  const role = roleFor(groups, oidc.roles, auth.anonymous === 'viewer');
  if (role === null) {
    return {
      ok: false,
      refusal: { status: 403, code: 'forbidden', message: 'you signed in at the provider, but none of your groups has a role on this dashboard' },
    };
  }
  const who = auditName(claims, sub);
  const id = await sources.sessions.open(who, auth.sessionTtlMs);
  const session: OidcSession = {
    id,
    sub,
    who,
    role,
    selectors: role === 'operator' ? selectorsFor(groups, oidc.roles, oidc.roleSelectors) : null,
    refreshToken: tokens.refresh_token ?? null,
    refreshAtMs: nowMs + oidc.refreshEveryMs,
    expiresAtMs: nowMs + auth.sessionTtlMs,
  };
  return { ok: true, session, value: await sealSession(auth, session, nowMs), next: typeof flow.nx === 'string' ? flow.nx : '/' };
}

/** The session a cookie value holds, if it opens and is still open in the store; `stale` once its role is due a refresh. */
export async function readOidcSession(
  sources: OidcSources,
  value: string | undefined,
  nowMs: number,
): Promise<{ session: OidcSession; stale: boolean } | null> {
  const payload = await unseal(sources.auth.sessionSecret, 'oidc-session', value, nowMs);
  if (payload === null) return null;
  const { sid, sub, who, role, sel, rt, ra, exp } = payload;
  if (typeof sid !== 'string' || typeof sub !== 'string' || typeof who !== 'string' || typeof ra !== 'number' || typeof exp !== 'number') return null;
  const selectors = sel === null || sel === undefined ? null : Array.isArray(sel) && sel.every((s) => typeof s === 'string') ? (sel as string[]) : undefined;
  if (selectors === undefined) return null;
  if (!(ROLES as readonly unknown[]).includes(role) || (rt !== null && typeof rt !== 'string')) return null;
  try {
    if (!(await sources.sessions.isOpen(sid))) return null;
  } catch {
    return null;
  }
  const session: OidcSession = { id: sid, sub, who, role: role as Role, selectors, refreshToken: rt, refreshAtMs: ra, expiresAtMs: exp * 1000 };
  return { session, stale: nowMs >= ra };
}

const inFlight = new Map<string, Promise<{ value: string; session: OidcSession } | null>>();
const MAX_IN_FLIGHT = 10_000;
/** How long a refresh's result is handed to requests that still carry the old cookie. */
const KEEP_RESULT_MS = 30_000;

/**
 * Redeems the refresh token and reads the groups again: the refreshed session and its cookie value,
 * or null when the session ended (it is then revoked in the store). Concurrent refreshes of one
 * session in this process share one call to the provider.
 */
export function refreshSession(sources: OidcSources, session: OidcSession, nowMs: number): Promise<{ value: string; session: OidcSession } | null> {
  const key = `${session.id}\u0000${session.refreshToken ?? ''}`;
  const running = inFlight.get(key);
  if (running) return running;
  const started = redeem(sources, session, nowMs);
  if (inFlight.size < MAX_IN_FLIGHT) {
    inFlight.set(key, started);
    void started.finally(() => setTimeout(() => inFlight.delete(key), KEEP_RESULT_MS).unref());
  }
  return started;
}

async function redeem(sources: OidcSources, session: OidcSession, nowMs: number): Promise<{ value: string; session: OidcSession } | null> {
  const { auth } = sources;
  const oidc = oidcOf(auth);
  const end = async () => {
    await sources.sessions.revoke(session.id).catch(() => undefined);
    return null;
  };
  if (session.refreshToken === null || nowMs >= session.expiresAtMs) return end();
  let refreshed: OidcSession;
  try {
    const config = await providerConfiguration(oidc);
    const tokens = await client.refreshTokenGrant(config, session.refreshToken);
    const sub = tokens.claims()?.sub ?? session.sub;
    if (sub !== session.sub) return end();
    const { groups } = await claimsAndGroups(oidc, config, tokens, sub);
    const role = roleFor(groups, oidc.roles, auth.anonymous === 'viewer');
    if (role === null) return end();
    const selectors = role === 'operator' ? selectorsFor(groups, oidc.roles, oidc.roleSelectors) : null;
    refreshed = { ...session, role, selectors, refreshToken: tokens.refresh_token ?? session.refreshToken, refreshAtMs: nowMs + oidc.refreshEveryMs };
  } catch {
    return end();
  }
  return { value: await sealSession(auth, refreshed, nowMs), session: refreshed };
}

/** Where to send the browser to sign out at the provider too, when it offers that (`end_session_endpoint`). */
export async function endSessionUrl(auth: AuthConfig): Promise<string | null> {
  const oidc = oidcOf(auth);
  const config = await providerConfiguration(oidc);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, { client_id: oidc.clientId, post_logout_redirect_uri: oidc.postLogoutUrl }).href;
}

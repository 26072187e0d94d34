/**
 * Local operator sessions: the operator token (printed once by the demo) is
 * exchanged for a short signed session cookie, so the token itself is never
 * stored by the browser.
 *
 * Guarantees
 * - The cookie is a JWT signed with HS256 by jose (no hand-rolled crypto),
 *   carrying only the display name, the session's id, the token generation
 *   and the expiry. It counts only while, on every request: the signature,
 *   algorithm, audience and expiry verify; its generation is the current
 *   token's (rotating LEASEBOARD_OPERATOR_TOKEN ends every older session); and
 *   the session store says it is open (signing out ends it at once, on every
 *   dashboard instance sharing the database). Anything else is a viewer,
 *   never an error — a store that cannot be read included (fails closed).
 * - The token comparison takes constant time for equal-length inputs.
 * - Cookie flags: HttpOnly, SameSite=Strict; with an https public URL
 *   (LEASEBOARD_PUBLIC_URL), `Secure` and the `__Host-` prefix (so Path=/ and
 *   no Domain); otherwise scoped to the base path. Never derived from what a
 *   request says about itself (X-Forwarded-Proto).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { AuthConfig } from './config';

export const SESSION_COOKIE = 'leaseboard_session';
/** The cookie's name when the dashboard is served over https: the browser then refuses it without Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const AUDIENCE = 'leaseboard-operator';
const ALGORITHM = 'HS256';

/** Where open sessions are kept (./session-store.ts: a table, so sign-out holds on every instance). */
export interface SessionStore {
  /** Records a session open for `ttlMs` (by the store's clock); returns its id. */
  open(who: string, ttlMs: number): Promise<string>;
  /** Whether the session is open: recorded, not signed out, not expired. */
  isOpen(id: string): Promise<boolean>;
  /** Signs it out. Idempotent. */
  revoke(id: string): Promise<void>;
}

export interface Session {
  id: string;
  /** Display name the operator typed at sign-in (shown in audits as `who`, marked as typed). */
  who: string;
  expiresAt: Date;
}

/** Hashing both sides first makes the comparison length-independent. */
export function tokenMatches(config: AuthConfig, presented: string): boolean {
  if (config.operatorToken === null) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(config.operatorToken));
}

export async function issueSession(
  sources: { auth: AuthConfig; sessions: SessionStore },
  who: string,
  nowMs: number,
): Promise<{ value: string; session: Session }> {
  const { auth } = sources;
  if (auth.tokenGeneration === null) throw new Error('session: local sign-in is off');
  const id = await sources.sessions.open(who, auth.sessionTtlMs);
  const expiresAtMs = nowMs + auth.sessionTtlMs;
  const value = await new SignJWT({ who, gen: auth.tokenGeneration })
    .setProtectedHeader({ alg: ALGORITHM })
    .setAudience(AUDIENCE)
    .setJti(id)
    .setIssuedAt(Math.floor(nowMs / 1000))
    .setExpirationTime(Math.floor(expiresAtMs / 1000))
    .sign(auth.sessionSecret);
  return { value, session: { id, who, expiresAt: new Date(expiresAtMs) } };
}

/** The session a request's Cookie header carries, if it verifies and is open (see the module header). */
export async function readSession(sources: { auth: AuthConfig; sessions: SessionStore }, cookieHeader: string | null, nowMs: number): Promise<Session | null> {
  const { auth } = sources;
  const value = sessionCookieValue(auth, cookieHeader);
  if (!value || auth.tokenGeneration === null) return null;
  try {
    const { payload } = await jwtVerify(value, auth.sessionSecret, { algorithms: [ALGORITHM], audience: AUDIENCE, currentDate: new Date(nowMs) });
    const { who, gen, jti, exp } = payload;
    if (typeof who !== 'string' || typeof jti !== 'string' || typeof exp !== 'number' || gen !== auth.tokenGeneration) return null;
    if (!(await sources.sessions.isOpen(jti))) return null;
    return { id: jti, who, expiresAt: new Date(exp * 1000) };
  } catch {
    return null;
  }
}

function sessionCookieName(config: AuthConfig): string {
  return config.publicUrl?.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** `basePath`: the base path the dashboard is served under ('' at the root); ignored for a `__Host-` cookie, which must be Path=/. */
export function sessionCookie(config: AuthConfig, value: string, basePath: string): string {
  return cookieHeader(config, value, Math.floor(config.sessionTtlMs / 1000), basePath);
}

export function clearedSessionCookie(config: AuthConfig, basePath: string): string {
  return cookieHeader(config, '', 0, basePath);
}

/** The session cookie's value from a request's Cookie header, if any. */
function sessionCookieValue(config: AuthConfig, cookieHeader: string | null): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[sessionCookieName(config)] : undefined;
}

function cookieHeader(config: AuthConfig, value: string, maxAge: number, basePath: string): string {
  const secure = config.publicUrl?.secure ?? false;
  return stringifySetCookie({
    name: sessionCookieName(config),
    value,
    maxAge,
    path: secure ? '/' : basePath || '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
}

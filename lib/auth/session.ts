/**
 * Local operator sessions: the operator token (printed once by the demo) is
 * exchanged for a short signed session cookie, so the token itself is never
 * stored by the browser.
 *
 * Guarantees
 * - The cookie is a JWT signed with HS256 by jose (no hand-rolled crypto),
 *   carrying only the session's display name and expiry; a cookie whose
 *   signature, algorithm, audience or expiry does not verify is ignored
 *   (the visitor is a viewer), never an error.
 * - The token comparison takes constant time for equal-length inputs.
 * - Cookie flags: HttpOnly, SameSite=Strict, Path=/ (the base path's root),
 *   Secure when the request came over HTTPS.
 * Not guaranteed: revocation before expiry (rotate LEASEBOARD_SESSION_SECRET).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { AuthConfig } from './config';

export const SESSION_COOKIE = 'leaseboard_session';
const AUDIENCE = 'leaseboard-operator';
const ALGORITHM = 'HS256';

export interface Session {
  /** Display name the operator chose at sign-in (shown in audits as `who`). */
  who: string;
  expiresAt: Date;
}

/** Hashing both sides first makes the comparison length-independent. */
export function tokenMatches(config: AuthConfig, presented: string): boolean {
  if (config.operatorToken === null) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(config.operatorToken));
}

export async function issueSession(config: AuthConfig, who: string, nowMs: number): Promise<{ value: string; session: Session }> {
  const expiresAtMs = nowMs + config.sessionTtlMs;
  const value = await new SignJWT({ who })
    .setProtectedHeader({ alg: ALGORITHM })
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(nowMs / 1000))
    .setExpirationTime(Math.floor(expiresAtMs / 1000))
    .sign(config.sessionSecret);
  return { value, session: { who, expiresAt: new Date(expiresAtMs) } };
}

export async function readSession(config: AuthConfig, value: string | undefined, nowMs: number): Promise<Session | null> {
  if (!value || config.operatorToken === null) return null;
  try {
    const { payload } = await jwtVerify(value, config.sessionSecret, {
      algorithms: [ALGORITHM],
      audience: AUDIENCE,
      currentDate: new Date(nowMs),
    });
    if (typeof payload.who !== 'string' || typeof payload.exp !== 'number') return null;
    return { who: payload.who, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return null;
  }
}

export interface CookieOptions {
  secure: boolean;
  /** The base path the dashboard is served under ('' at the root). */
  path: string;
}

export function sessionCookie(config: AuthConfig, value: string, options: CookieOptions): string {
  return cookieHeader(value, Math.floor(config.sessionTtlMs / 1000), options);
}

export function clearedSessionCookie(options: CookieOptions): string {
  return cookieHeader('', 0, options);
}

/** The session cookie's value from a request's Cookie header, if any. */
export function sessionCookieValue(cookieHeader: string | null): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
}

function cookieHeader(value: string, maxAge: number, options: CookieOptions): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value, maxAge, path: options.path || '/', httpOnly: true, sameSite: 'strict', secure: options.secure });
}

/**
 * The cookies of OpenID Connect sign-in: the sign-in in progress and the
 * session, both sealed (./sealed.ts).
 *
 * Guarantees: HttpOnly; `Secure` and the `__Host-` prefix with an https
 * LEASEBOARD_PUBLIC_URL. SameSite=Lax, not Strict: the browser comes back
 * from the provider on a cross-site navigation, which must carry the sign-in
 * cookie, and the session must count on the page it lands on. Writes do not
 * rest on SameSite: every one passes ../csrf.ts (a custom header, Origin).
 */
import { parseCookie, stringifySetCookie } from 'cookie';
import type { AuthConfig } from '../config';
import { SIGN_IN_WINDOW_MS } from './flow';

const SESSION = 'leaseboard_oidc';
const FLOW = 'leaseboard_oidc_flow';

const named = (config: AuthConfig, name: string) => (config.publicUrl?.secure ? `__Host-${name}` : name);

function header(config: AuthConfig, name: string, value: string, maxAgeS: number, basePath: string): string {
  const secure = config.publicUrl?.secure ?? false;
  return stringifySetCookie({
    name: named(config, name),
    value,
    maxAge: maxAgeS,
    path: secure ? '/' : basePath || '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
}

const read = (config: AuthConfig, name: string, cookieHeader: string | null) => (cookieHeader ? parseCookie(cookieHeader)[named(config, name)] : undefined);

export const oidcSessionValue = (config: AuthConfig, cookieHeader: string | null) => read(config, SESSION, cookieHeader);
export const oidcFlowValue = (config: AuthConfig, cookieHeader: string | null) => read(config, FLOW, cookieHeader);
const oidcSessionCookieName = (config: AuthConfig) => named(config, SESSION);

export const oidcSessionCookie = (config: AuthConfig, value: string, basePath: string) =>
  header(config, SESSION, value, Math.floor(config.sessionTtlMs / 1000), basePath);
export const clearedOidcSessionCookie = (config: AuthConfig, basePath: string) => header(config, SESSION, '', 0, basePath);
export const oidcFlowCookie = (config: AuthConfig, value: string, basePath: string) => header(config, FLOW, value, SIGN_IN_WINDOW_MS / 1000, basePath);
export const clearedOidcFlowCookie = (config: AuthConfig, basePath: string) => header(config, FLOW, '', 0, basePath);

/** A Cookie header with the session cookie's value replaced (a refreshed session, for the rest of this request). */
export function withOidcSession(config: AuthConfig, cookieHeader: string | null, value: string): string {
  const name = oidcSessionCookieName(config);
  const kept = (cookieHeader ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith(`${name}=`));
  return [...kept, value === '' ? null : `${name}=${value}`].filter((part) => part !== null).join('; ');
}

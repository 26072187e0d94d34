/**
 * Who may act, from the environment: parsed once, validated, typed.
 *
 * Two sources of identity, both optional:
 * - SSO proxy (oauth2-proxy, IAP, …): `LEASEBOARD_AUTH_HEADER` names the header
 *   carrying the user's email, accepted ONLY on requests whose peer address is
 *   in `LEASEBOARD_TRUSTED_PROXIES`; `LEASEBOARD_AUTH_GROUPS_HEADER` optionally
 *   carries groups. Roles: operator when the email is in `LEASEBOARD_OPERATORS`
 *   or a group is in `LEASEBOARD_OPERATOR_GROUPS`; viewer otherwise.
 * - Local / demo: `LEASEBOARD_OPERATOR_TOKEN`, exchanged once for a signed
 *   session cookie (./session.ts) signed with `LEASEBOARD_SESSION_SECRET`
 *   (a random per-process secret when unset: sessions end with the process).
 *
 * Guarantees: with nothing configured, everyone is a viewer. A malformed value
 * throws `AuthConfigError` naming the variable and never echoing a secret.
 */
import { randomBytes } from 'node:crypto';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

export const OPERATOR_TOKEN_MIN_LENGTH = 24;
export const SESSION_SECRET_MIN_LENGTH = 32;
export const SESSION_TTL_DEFAULT_MS = 12 * 60 * 60_000;
export const SESSION_TTL_MAX_MS = 7 * 24 * 60 * 60_000;

export class AuthConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`auth config: ${variable}: ${message}`);
    this.name = 'AuthConfigError';
  }
}

export interface ProxyIdentityConfig {
  /** Lower-case header name carrying the user's email, e.g. `x-forwarded-email`. */
  header: string;
  /** Lower-case header name carrying comma-separated groups, or null. */
  groupsHeader: string | null;
  /** True when `address` is a configured proxy (IPs or CIDRs). */
  trusts(address: string): boolean;
}

export interface AuthConfig {
  proxy: ProxyIdentityConfig | null;
  /** Emails (lower case) with the operator role. */
  operators: ReadonlySet<string>;
  /** Groups with the operator role. */
  operatorGroups: ReadonlySet<string>;
  /** The local operator token, or null when local sign-in is off. */
  operatorToken: string | null;
  sessionSecret: Uint8Array;
  sessionTtlMs: number;
  /** The dashboard's public origin (behind a proxy), or null: then the request's own Host is the origin. */
  publicOrigin: string | null;
}

const HEADER_NAME = /^[a-z0-9-]{1,64}$/;

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

function parseProxy(env: Record<string, string | undefined>): ProxyIdentityConfig | null {
  const header = env.LEASEBOARD_AUTH_HEADER?.trim().toLowerCase();
  if (!header) return null;
  if (!HEADER_NAME.test(header)) throw new AuthConfigError('LEASEBOARD_AUTH_HEADER', 'must be a header name of letters, digits and dashes');
  const groupsHeader = env.LEASEBOARD_AUTH_GROUPS_HEADER?.trim().toLowerCase() || null;
  if (groupsHeader !== null && !HEADER_NAME.test(groupsHeader)) {
    throw new AuthConfigError('LEASEBOARD_AUTH_GROUPS_HEADER', 'must be a header name of letters, digits and dashes');
  }
  const proxies = list(env.LEASEBOARD_TRUSTED_PROXIES);
  if (proxies.length === 0) {
    throw new AuthConfigError('LEASEBOARD_TRUSTED_PROXIES', 'required with LEASEBOARD_AUTH_HEADER: the addresses of the SSO proxy (IPs or CIDRs)');
  }
  let trust: (address: string, hop: number) => boolean;
  try {
    trust = proxyAddr.compile(proxies);
  } catch (error) {
    throw new AuthConfigError('LEASEBOARD_TRUSTED_PROXIES', `not a list of IPs or CIDRs (${(error as Error).message})`);
  }
  return { header, groupsHeader, trusts: (address) => address !== '' && trust(address, 0) };
}

const emailList = z.array(z.email().max(254));

export function parseAuthConfig(env: Record<string, string | undefined>): AuthConfig {
  const operators = emailList.safeParse(list(env.LEASEBOARD_OPERATORS).map((email) => email.toLowerCase()));
  if (!operators.success) throw new AuthConfigError('LEASEBOARD_OPERATORS', 'must be a comma-separated list of email addresses');
  const token = env.LEASEBOARD_OPERATOR_TOKEN?.trim() || null;
  if (token !== null && token.length < OPERATOR_TOKEN_MIN_LENGTH) {
    throw new AuthConfigError('LEASEBOARD_OPERATOR_TOKEN', `must be at least ${OPERATOR_TOKEN_MIN_LENGTH} characters`);
  }
  const secret = env.LEASEBOARD_SESSION_SECRET?.trim() || null;
  if (secret !== null && secret.length < SESSION_SECRET_MIN_LENGTH) {
    throw new AuthConfigError('LEASEBOARD_SESSION_SECRET', `must be at least ${SESSION_SECRET_MIN_LENGTH} characters`);
  }
  const ttlRaw = env.LEASEBOARD_SESSION_TTL_MS?.trim();
  const ttl = ttlRaw ? Number(ttlRaw) : SESSION_TTL_DEFAULT_MS;
  if (!Number.isInteger(ttl) || ttl < 60_000 || ttl > SESSION_TTL_MAX_MS) {
    throw new AuthConfigError('LEASEBOARD_SESSION_TTL_MS', `must be whole milliseconds between 60000 and ${SESSION_TTL_MAX_MS}`);
  }
  let publicOrigin: string | null = null;
  const rawOrigin = env.LEASEBOARD_PUBLIC_ORIGIN?.trim();
  if (rawOrigin) {
    try {
      publicOrigin = new URL(rawOrigin).origin;
    } catch {
      throw new AuthConfigError('LEASEBOARD_PUBLIC_ORIGIN', 'must be an origin such as https://leaseboard.example.org');
    }
  }
  return Object.freeze({
    proxy: parseProxy(env),
    operators: new Set(operators.data),
    operatorGroups: new Set(list(env.LEASEBOARD_OPERATOR_GROUPS)),
    operatorToken: token,
    sessionSecret: secret !== null ? new TextEncoder().encode(secret) : randomBytes(32),
    sessionTtlMs: ttl,
    publicOrigin,
  });
}

let cached: AuthConfig | null = null;

/** The process environment's auth config, parsed on first use. */
export function authConfig(): AuthConfig {
  cached ??= parseAuthConfig(process.env);
  return cached;
}

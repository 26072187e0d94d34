/**
 * Who may act, from the environment: parsed once, validated, typed.
 *
 * Two sources of identity, both optional:
 * - SSO proxy (oauth2-proxy, IAP, …): `LEASEBOARD_AUTH_HEADER` names the header
 *   carrying the user's email, accepted ONLY on requests whose peer address is
 *   in `LEASEBOARD_TRUSTED_PROXIES`; `LEASEBOARD_AUTH_GROUPS_HEADER` optionally
 *   carries groups (lib/http/proxies.ts: a loopback entry, or one covering more
 *   than 256 addresses, is refused unless LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES=1,
 *   and then announced at start). The proxy must strip both headers from what
 *   clients send. Roles: operator when the email is in `LEASEBOARD_OPERATORS`
 *   or a group is in `LEASEBOARD_OPERATOR_GROUPS`; viewer otherwise.
 * - Local / demo: `LEASEBOARD_OPERATOR_TOKEN`, exchanged once for a signed
 *   session cookie (./session.ts) signed with `LEASEBOARD_SESSION_SECRET`
 *   (a random per-process secret when unset: sessions end with the process).
 * The dashboard's public URL (`LEASEBOARD_PUBLIC_URL`, lib/api/public-url.ts)
 * sets the origin writes must come from and, when it is https, the cookie's
 * `Secure` flag and `__Host-` prefix.
 *
 * - OpenID Connect (./oidc): `LEASEBOARD_OIDC_ISSUER` and its client; groups
 *   map to roles (viewer, operator, admin) through `LEASEBOARD_OIDC_ROLES`.
 * `LEASEBOARD_ANONYMOUS` says whether a visitor who has not signed in reads
 * (viewer, the default) or sees nothing but health checks and metrics (none).
 *
 * Guarantees: with nothing configured, everyone is a viewer. A malformed value
 * throws `AuthConfigError` naming the variable and never echoing a secret;
 * `notes` lists what the server must say at start (accepted risks,
 * deprecated settings).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { checkedEnv, type Env, settingsOf } from '../config';
import { parsePublicUrl, type PublicUrl, PublicUrlError } from '../api/public-url';
import { parseProxyTrust, ProxyListError, type ProxyTrust } from '../http/proxies';
import { type OidcConfig, parseOidcConfig } from './oidc/config';

export class AuthConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`auth config: ${variable}: ${message}`);
    this.name = 'AuthConfigError';
  }
}

export interface AuthConfig {
  /** The SSO proxy (identity) and the proxies whose X-Forwarded-For names the client. */
  proxies: ProxyTrust;
  /** Emails (lower case) with the operator role. */
  operators: ReadonlySet<string>;
  /** Groups with the operator role. */
  operatorGroups: ReadonlySet<string>;
  /** The local operator token, or null when local sign-in is off. */
  operatorToken: string | null;
  /**
   * The token's generation: an HMAC of the token keyed with the session
   * secret, carried by every session and compared on every request, so
   * rotating the token ends every session issued under the old one. Keyed,
   * never a plain hash: a cookie's holder cannot test guesses of the token
   * against it offline. Null when local sign-in is off.
   */
  tokenGeneration: string | null;
  sessionSecret: Uint8Array;
  sessionTtlMs: number;
  /** The dashboard's public URL, or null: then the request's own Host is the origin, and cookies are not Secure. */
  publicUrl: PublicUrl | null;
  /** What a visitor who has not signed in may do: read everything, or nothing but health checks and metrics (./access.ts). */
  anonymous: 'viewer' | 'none';
  /** OpenID Connect sign-in (./oidc), or null when off. */
  oidc: OidcConfig | null;
  /** Lines to print at start (accepted risks, deprecated settings). */
  notes: readonly string[];
}

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

const emailList = z.array(z.email().max(254));

function proxyTrust(env: Env): ProxyTrust {
  try {
    return parseProxyTrust(env);
  } catch (error) {
    if (error instanceof ProxyListError) throw new AuthConfigError(error.variable, error.problem);
    throw error;
  }
}

function publicUrl(env: Env): PublicUrl | null {
  try {
    return parsePublicUrl(env);
  } catch (error) {
    if (error instanceof PublicUrlError) throw new AuthConfigError(error.variable, error.problem);
    throw error;
  }
}

export function parseAuthConfig(env: Env): AuthConfig {
  // Never echoing a secret: the schema's messages name the variable and the rule, not the value.
  const setting = settingsOf(env, (variable, problem) => new AuthConfigError(variable, problem));
  const operators = emailList.safeParse(list(setting('operators') ?? undefined).map((email) => email.toLowerCase()));
  if (!operators.success) throw new AuthConfigError('LEASEBOARD_OPERATORS', 'must be a comma-separated list of email addresses');
  const token = setting('operatorToken');
  const secret = setting('sessionSecret');
  const ttl = setting('sessionTtl');
  const proxies = proxyTrust(env);
  const url = publicUrl(env);
  const sessionSecret = secret !== null ? new TextEncoder().encode(secret) : randomBytes(32);
  return Object.freeze({
    proxies,
    operators: new Set(operators.data),
    operatorGroups: new Set(list(setting('operatorGroups') ?? undefined)),
    operatorToken: token,
    tokenGeneration:
      token === null ? null : createHmac('sha256', sessionSecret).update(`leaseboard-token-generation:${token}`).digest('base64url').slice(0, 22),
    sessionSecret,
    sessionTtlMs: ttl,
    publicUrl: url,
    anonymous: setting('anonymous'),
    oidc: parseOidcConfig(setting, (variable, problem) => new AuthConfigError(variable, problem), url),
    notes: Object.freeze([...proxies.notes, ...(url?.warnings ?? [])]),
  });
}

let cached: AuthConfig | null = null;

/** The process environment's auth config, parsed on first use. */
export function authConfig(): AuthConfig {
  cached ??= parseAuthConfig(checkedEnv());
  return cached;
}

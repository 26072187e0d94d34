/**
 * Who is asking: an operator, or a read-only viewer — and how that was
 * established, which every audit row records.
 *
 * Guarantees
 * - The SSO proxy's identity header counts ONLY when the request's peer
 *   address (stamped by our own HTTP server, lib/http/peer.ts) is a configured
 *   proxy; the same header from anywhere else is ignored, never an error.
 * - A local session counts only when its cookie verifies and the session is
 *   still open (./session.ts: signature, expiry, token generation, not signed
 *   out) — checked on every request.
 * - An OpenID Connect session counts only when its sealed cookie opens, the
 *   session is open in the store and its role is not due a refresh
 *   (./oidc/flow.ts); its role is the one its groups earned (./oidc/roles.ts).
 * - Without any, the visitor is an anonymous viewer: reading needs no
 *   identity, every write needs the operator role (./guard.ts).
 * Not guaranteed: that the proxy authenticated the user, or that a token
 * holder typed their own name — configure only proxies that do, and only
 * their addresses; the audit says which way each identity was established.
 */
import { peerAddress } from '../http/peer';
import type { AuthConfig } from './config';
import { SERVICE_TOKEN_SCOPES } from '../api/service-token-scopes';
import { type Grant, selectorGrant } from './grant';
import { presentedServiceToken, type ServiceTokenStore } from './service-tokens';
import { readSession, type SessionStore } from './session';
import { oidcSessionValue } from './oidc/cookies';
import { readOidcSession } from './oidc/flow';

/** How an identity was established: single sign-on (the SSO proxy's header, or OpenID Connect), the operator token with a name typed at sign-in, or a service token. */
export type Established = 'sso' | 'token' | 'service_token';

/** Someone who may act: an operator, or an admin (who may do everything an operator may) — within `grant` when it has one. */
export interface OperatorIdentity {
  role: 'operator' | 'admin';
  who: string;
  via: 'proxy' | 'session' | 'oidc' | 'service_token';
  /** What this identity is limited to (./grant.ts); null: unlimited. A service token always has one. */
  grant: Grant | null;
}

export type Identity = { role: 'viewer'; who: null; via: 'anonymous' } | { role: 'viewer'; who: string; via: 'proxy' | 'oidc' } | OperatorIdentity;

const ANONYMOUS: Identity = Object.freeze({ role: 'viewer', who: null, via: 'anonymous' });

/** What identity is read from: the configuration, the open sessions and the service tokens (absent: none is accepted). */
export interface AuthSources {
  auth: AuthConfig;
  sessions: SessionStore;
  serviceTokens?: ServiceTokenStore;
}

const MAX_IDENTITY_LENGTH = 254;

export function established(identity: OperatorIdentity): Established {
  return identity.via === 'session' ? 'token' : identity.via === 'service_token' ? 'service_token' : 'sso';
}

function proxyIdentity(config: AuthConfig, headers: Headers): Identity | null {
  const proxy = config.proxies.identity;
  if (proxy === null) return null;
  const peer = peerAddress(headers);
  if (peer === null || !proxy.proxies.trusts(peer)) return null;
  const who = headers.get(proxy.header)?.trim().toLowerCase();
  if (!who || who.length > MAX_IDENTITY_LENGTH) return null;
  const groups = proxy.groupsHeader === null ? [] : (headers.get(proxy.groupsHeader) ?? '').split(',').map((g) => g.trim());
  const operator = config.operators.has(who) || groups.some((group) => group !== '' && config.operatorGroups.has(group));
  return operator ? { role: 'operator', who, via: 'proxy', grant: null } : { role: 'viewer', who, via: 'proxy' };
}

/**
 * The service token the request carries: its identity; `refused` when it carries one that does not count
 * (malformed, unknown, revoked, wrong secret, or no store to check it); null when it carries none.
 */
export async function serviceTokenIdentity(sources: AuthSources, headers: Headers): Promise<OperatorIdentity | 'refused' | null> {
  const presented = presentedServiceToken(headers.get('authorization'));
  if (presented === null) return null;
  if (presented === 'malformed' || sources.serviceTokens === undefined) return 'refused';
  const found = await sources.serviceTokens.authenticate(presented);
  return found === null ? 'refused' : { role: 'operator', who: found.name, via: 'service_token', grant: found.grant };
}

/** An OpenID Connect operator limited to selectors operates their schedulers in every way a scope names; else unlimited. */
function oidcGrant(session: { selectors: string[] | null }): Grant | null {
  if (session.selectors === null) return null;
  // A selector that no longer parses limits to nothing rather than to everything.
  return selectorGrant(SERVICE_TOKEN_SCOPES, session.selectors) ?? { scopes: new Set(), target: { kind: 'schedulers', names: new Set() } };
}

export async function resolveIdentity(sources: AuthSources, headers: Headers, nowMs: number): Promise<Identity> {
  const token = await serviceTokenIdentity(sources, headers);
  if (token !== null) return token === 'refused' ? ANONYMOUS : token;
  const fromProxy = proxyIdentity(sources.auth, headers);
  if (fromProxy !== null) return fromProxy;
  const session = await readSession(sources, headers.get('cookie'), nowMs);
  if (session !== null) return { role: 'operator', who: session.who, via: 'session', grant: null };
  if (sources.auth.oidc !== null) {
    // A stale session (its role due a refresh) counts for nothing until refreshed: lib/auth/oidc/flow.ts.
    const found = await readOidcSession(sources, oidcSessionValue(sources.auth, headers.get('cookie')), nowMs);
    if (found !== null && !found.stale) {
      const { role, who } = found.session;
      return role === 'viewer' ? { role, who, via: 'oidc' } : { role, who, via: 'oidc', grant: oidcGrant(found.session) };
    }
  }
  return ANONYMOUS;
}

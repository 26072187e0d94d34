/**
 * Who is asking: an operator, or a read-only viewer.
 *
 * Guarantees
 * - The SSO proxy's identity header counts ONLY when the request's peer
 *   address (stamped by our own HTTP server, ./peer.ts) is a configured proxy;
 *   the same header from anywhere else is ignored, never an error.
 * - A local session counts only when its cookie verifies (./session.ts).
 * - Without either, the visitor is an anonymous viewer: reading needs no
 *   identity, every write needs the operator role (./guard.ts).
 * Not guaranteed: that the proxy authenticated the user — configure only
 * proxies that do, and only their addresses.
 */
import type { AuthConfig } from './config';
import { peerAddress } from './peer';
import { readSession, sessionCookieValue } from './session';

export type Role = 'viewer' | 'operator';

export interface OperatorIdentity {
  role: 'operator';
  who: string;
  via: 'proxy' | 'session';
}

export type Identity = { role: 'viewer'; who: null; via: 'anonymous' } | { role: 'viewer'; who: string; via: 'proxy' } | OperatorIdentity;

export const ANONYMOUS: Identity = Object.freeze({ role: 'viewer', who: null, via: 'anonymous' });

const MAX_IDENTITY_LENGTH = 254;

function proxyIdentity(config: AuthConfig, headers: Headers): Identity | null {
  const proxy = config.proxy;
  if (proxy === null) return null;
  const peer = peerAddress(headers);
  if (peer === null || !proxy.trusts(peer)) return null;
  const who = headers.get(proxy.header)?.trim().toLowerCase();
  if (!who || who.length > MAX_IDENTITY_LENGTH) return null;
  const groups = proxy.groupsHeader === null ? [] : (headers.get(proxy.groupsHeader) ?? '').split(',').map((g) => g.trim());
  const operator = config.operators.has(who) || groups.some((group) => group !== '' && config.operatorGroups.has(group));
  return operator ? { role: 'operator', who, via: 'proxy' } : { role: 'viewer', who, via: 'proxy' };
}

export async function resolveIdentity(config: AuthConfig, headers: Headers, nowMs: number): Promise<Identity> {
  const fromProxy = proxyIdentity(config, headers);
  if (fromProxy !== null) return fromProxy;
  const session = await readSession(config, sessionCookieValue(headers.get('cookie')), nowMs);
  if (session !== null) return { role: 'operator', who: session.who, via: 'session' };
  return ANONYMOUS;
}

/**
 * Whose budget a request spends (per-client rate limits): the SSO user when a
 * trusted proxy names one, else the peer address, else one shared bucket.
 * Cheap: no signature checks. Never logged (it may be an email or an address).
 */
export function clientKey(config: AuthConfig, headers: Headers): string {
  const peer = peerAddress(headers);
  const proxy = config.proxy;
  if (proxy !== null && peer !== null && proxy.trusts(peer)) {
    const who = headers.get(proxy.header)?.trim().toLowerCase();
    if (who) return `user:${who}`;
  }
  return peer === null ? 'unidentified' : `peer:${peer}`;
}

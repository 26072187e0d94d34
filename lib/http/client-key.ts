/**
 * Whose budget a request spends, for per-client limits (heavy reads, sign-in
 * attempts): the SSO user when the SSO proxy names one, else the client's
 * address — through X-Forwarded-For when the peer is a configured proxy
 * (./proxies.ts) — else the peer, else one shared bucket.
 *
 * Guarantees
 * - X-Forwarded-For is read only from configured proxies, right to left,
 *   stopping at the first address that is not one of them: a client cannot
 *   pick its bucket by sending the header itself.
 * - IPv6 clients are grouped by their /64 (one subscriber's allocation), so
 *   rotating addresses inside it does not buy a fresh budget.
 * - Cheap: no signature checks. The key may be an email or an address: it is
 *   never logged; `clientTag` gives a loggable stand-in (a keyed hash,
 *   stable within this process, meaningless outside it).
 */
import { createHmac, randomBytes } from 'node:crypto';
import net from 'node:net';
import proxyAddr from 'proxy-addr';
import { peerAddress } from './peer';
import type { ProxyTrust } from './proxies';

/** The client's address as the proxies we trust report it, or the peer; null when the request carries no peer stamp. */
function clientAddress(trust: ProxyTrust, headers: Headers): string | null {
  const peer = peerAddress(headers);
  if (peer === null) return null;
  if (trust.forwarders.length === 0) return peer;
  const request = { connection: { remoteAddress: peer }, headers: { 'x-forwarded-for': headers.get('x-forwarded-for') ?? undefined } };
  return proxyAddr(request as unknown as Parameters<typeof proxyAddr>[0], (address) => trust.forwarders.some((list) => list.trusts(address)));
}

function expandIpv6(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => group.padStart(4, '0').toLowerCase());
}

/** IPv4 as it is; IPv6 as its /64 (an IPv4-mapped IPv6 address as the IPv4 address). */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(address)) return address;
  return `${expandIpv6(address.split('%', 1)[0]!).slice(0, 4).join(':')}::/64`;
}

export function clientKey(trust: ProxyTrust, headers: Headers): string {
  const peer = peerAddress(headers);
  const identity = trust.identity;
  if (identity !== null && peer !== null && identity.proxies.trusts(peer)) {
    const who = headers.get(identity.header)?.trim().toLowerCase();
    if (who) return `user:${who}`;
  }
  const address = clientAddress(trust, headers);
  return address === null ? 'unidentified' : `client:${addressGroup(address)}`;
}

const TAG_KEY = randomBytes(32);

/** A stand-in for a client key in logs: the same client gets the same tag while this process runs; no address or email in it. */
export function clientTag(key: string): string {
  return `client-${createHmac('sha256', TAG_KEY).update(key).digest('hex').slice(0, 10)}`;
}

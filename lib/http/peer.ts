/**
 * The TCP peer address of a request, as our own HTTP server saw it.
 *
 * Next.js route handlers never see the socket, so the dashboard's server
 * (lib/host/dashboard-server.ts) stamps each request with a header carrying
 * the peer address and a per-process random key, after deleting any such
 * header the client sent. A request without a valid stamp (served by
 * `next dev`, or forged) has no known peer: proxy identity is then ignored.
 *
 * Guarantee: a client cannot choose its peer address — it would need the
 * process's key, which never leaves the process.
 *
 * Shared HTTP plumbing (lib/http): identity (lib/auth) and the per-client
 * limits (lib/server, lib/actions) read the peer from here; this folder
 * imports nothing of lib/.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const PEER_HEADER = 'x-leaseboard-peer';
const KEY_VARIABLE = 'LEASEBOARD_PEER_STAMP_KEY';

/** Called once by the dashboard server before Next.js starts; returns the stamping function. */
export function enablePeerStamping(): (address: string | undefined) => string {
  const key = randomBytes(18).toString('base64url');
  process.env[KEY_VARIABLE] = key;
  return (address) => `${key} ${address ?? ''}`;
}

export function peerAddress(headers: Headers): string | null {
  const key = process.env[KEY_VARIABLE];
  const stamp = headers.get(PEER_HEADER);
  if (!key || !stamp) return null;
  const space = stamp.indexOf(' ');
  if (space < 0) return null;
  const presented = Buffer.from(stamp.slice(0, space));
  const expected = Buffer.from(key);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
  const address = stamp.slice(space + 1);
  return address === '' ? null : address;
}

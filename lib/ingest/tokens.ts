/**
 * Report tokens: `lbr_<id>.<secret>`, a per-scheduler bearer credential for
 * HTTP reports. `id` (12 hex) is public and names the row; `secret` is 32
 * random bytes (base64url), stored only as its SHA-256.
 *
 * Guarantees: a token names nothing about the machine or the person (random
 * bytes only); verification compares digests in constant time; a malformed
 * token is told apart from a wrong one only by the caller's choice of
 * message, never by timing on the secret.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const REPORT_TOKENS_PER_SCHEDULER = 5;

const TOKEN = /^lbr_([0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

export interface MintedToken {
  id: string;
  /** The whole token: shown once, never stored. */
  token: string;
  secretSha256: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function mintReportToken(): MintedToken {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `lbr_${id}.${secret}`, secretSha256: sha256(secret) };
}

export interface PresentedToken {
  id: string;
  secret: string;
}

/** The token of an `Authorization: Bearer lbr_…` header, or null when there is none or it is not one of ours. */
export function presentedToken(authorization: string | null): PresentedToken | null {
  const match = /^Bearer (\S+)$/.exec(authorization?.trim() ?? '');
  const parts = match ? TOKEN.exec(match[1]!) : null;
  return parts ? { id: parts[1]!, secret: parts[2]! } : null;
}

export function secretMatches(presented: PresentedToken, storedSha256: string): boolean {
  const given = Buffer.from(sha256(presented.secret), 'hex');
  const stored = Buffer.from(storedSha256, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Instance tokens: random, display-safe identities for one scheduler process.
 * Guarantees: 8 uniform base-36 symbols (~41 bits) from the CSPRNG, lowercase base-36, e.g. `inst_7kq2m9xd`;
 * derived from nothing about the machine (no hostname, PID, IP or secret), and
 * granting nothing — the epoch is the authority, the token only names.
 */
import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
export const INSTANCE_TOKEN_PATTERN = /^inst_[0-9a-z]{8}$/;

export function newInstanceToken(): string {
  let token = '';
  for (let i = 0; i < 8; i++) token += ALPHABET[randomInt(ALPHABET.length)];
  return `inst_${token}`;
}

/** Display labels are operator-chosen names like `A` or `blue`; keep them short and plain. */
export const LABEL_PATTERN = /^[A-Za-z0-9 _.-]{1,32}$/;

/**
 * A SCRAM-SHA-256 verifier (RFC 5802, RFC 7677, stored as RFC 5803 and
 * PostgreSQL's `pg_authid.rolpassword`): `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`.
 * Sent as `ALTER ROLE … PASSWORD '<verifier>'`, the server stores it as it
 * is, so the plain password never travels in a statement a server log, an
 * `pg_stat_statements` row or `log_min_error_statement` could keep. node-pg
 * does not expose the one it computes for logins, hence this one.
 *
 * Guarantees: the verifier of `password` with a fresh 16-byte salt and 4096
 * iterations (PostgreSQL's default `scram_iterations`). The password must be
 * ASCII without control characters (SASLprep leaves those unchanged; ours are
 * base64url): anything else throws rather than compute a verifier the
 * server's SASLprep would disagree with.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const SCRAM_ITERATIONS = 4096;

export function scramSha256Verifier(password: string, salt: Buffer = randomBytes(16), iterations = SCRAM_ITERATIONS): string {
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('a SCRAM verifier is computed here only for printable ASCII passwords');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

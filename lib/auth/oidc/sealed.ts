/**
 * Sealed cookies for OpenID Connect sign-in: the sign-in in progress (state,
 * nonce, PKCE verifier) and the session (subject, name, role, refresh token).
 *
 * Guarantees: encrypted and authenticated (JWE `dir` + A256GCM, by jose), so
 * the browser can neither read the refresh token nor change the role; a key
 * of its own per purpose, derived from LEASEBOARD_SESSION_SECRET, so a value
 * sealed for one purpose never opens as another, nor as the token session's
 * signed cookie. Anything that does not open, has expired or has the wrong
 * shape is `null`, never an error.
 */
import { createHash } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';

export type Purpose = 'oidc-flow' | 'oidc-session';

const keyFor = (secret: Uint8Array, purpose: Purpose) => createHash('sha256').update(`leaseboard-sealed:${purpose}:`).update(secret).digest();

export async function seal(secret: Uint8Array, purpose: Purpose, claims: JWTPayload, expiresAtMs: number, nowMs: number): Promise<string> {
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(purpose)
    .setIssuedAt(Math.floor(nowMs / 1000))
    .setExpirationTime(Math.floor(expiresAtMs / 1000))
    .encrypt(keyFor(secret, purpose));
}

export async function unseal(secret: Uint8Array, purpose: Purpose, value: string | undefined, nowMs: number): Promise<JWTPayload | null> {
  if (!value || value.length > 8192) return null;
  try {
    const { payload } = await jwtDecrypt(value, keyFor(secret, purpose), {
      audience: purpose,
      currentDate: new Date(nowMs),
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    return payload;
  } catch {
    return null;
  }
}

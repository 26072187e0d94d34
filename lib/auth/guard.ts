/**
 * The gate in front of every write: same-origin first, then the operator
 * role (or admin, which includes it). Returns the identity to audit, or the refusal to send.
 *
 * Guarantee: a refused request has changed nothing — callers write only
 * after `authorizeWrite` returned `ok`.
 */
import { checkSameOrigin } from './csrf';
import { type AuthSources, type OperatorIdentity, resolveIdentity } from './identity';

export type WriteRefusal = { status: 403; code: 'cross_site' | 'forbidden'; message: string };

export type Authorization = { ok: true; identity: OperatorIdentity } | { ok: false; refusal: WriteRefusal };

export async function authorizeWrite(sources: AuthSources, headers: Headers, nowMs: number): Promise<Authorization> {
  const origin = checkSameOrigin(sources.auth, headers);
  if (!origin.ok) return { ok: false, refusal: { status: 403, code: 'cross_site', message: origin.message } };
  const identity = await resolveIdentity(sources, headers, nowMs);
  if (identity.role === 'viewer') {
    return { ok: false, refusal: { status: 403, code: 'forbidden', message: 'this action needs the operator role; viewers can only read' } };
  }
  return { ok: true, identity };
}

/**
 * The gate in front of every write: same-origin first, then the operator
 * role (or admin, which includes it), then what the identity is limited to.
 * Returns the identity to audit, or the refusal to send.
 *
 * Guarantees
 * - A refused request has changed nothing — callers write only after
 *   `authorizeWrite` returned `ok`.
 * - A limited identity (a service token, an operator of a selector:
 *   ./grant.ts) passes only a gate that names a scope it holds; a gate that
 *   names none (labels, alert modes, fault drills, service tokens) refuses
 *   it. A gate that names a scope lets the route check the scheduler:
 *   `authorizeScheduler` before anything is read from the body or written.
 */
import type pg from 'pg';
import { checkSameOrigin } from './csrf';
import type { ServiceTokenScope } from '../api/service-token-scopes';
import { coversScheduler, describeTarget, hasScope } from './grant';
import { type AuthSources, type OperatorIdentity, resolveIdentity } from './identity';

export type WriteRefusal = { status: 403; code: 'cross_site' | 'forbidden'; message: string };

export type Authorization = { ok: true; identity: OperatorIdentity } | { ok: false; refusal: WriteRefusal };

const forbidden = (message: string): Authorization => ({ ok: false, refusal: { status: 403, code: 'forbidden', message } });

/** `scope`: what the action is, for a limited identity; absent, only an unlimited operator may act. */
export async function authorizeWrite(sources: AuthSources, headers: Headers, nowMs: number, scope?: ServiceTokenScope): Promise<Authorization> {
  const origin = checkSameOrigin(sources.auth, headers);
  if (!origin.ok) return { ok: false, refusal: { status: 403, code: 'cross_site', message: origin.message } };
  const identity = await resolveIdentity(sources, headers, nowMs);
  if (identity.role === 'viewer') return forbidden('this action needs the operator role; viewers can only read');
  if (identity.grant !== null && (scope === undefined || !hasScope(identity.grant, scope))) {
    return forbidden(
      scope === undefined
        ? `${identity.who} is limited to ${describeTarget(identity.grant)}; this action needs an unlimited operator`
        : `${identity.who} has no ${scope} scope`,
    );
  }
  return { ok: true, identity };
}

/** The scheduler's labels as they are now (an operator's override, else its registration's); null: not registered. */
async function labelsOf(db: Pick<pg.Pool, 'query'>, name: string): Promise<Record<string, string> | null> {
  const { rows } = await db.query<{ labels: Record<string, string> | null }>(
    `SELECT COALESCE((SELECT labels FROM label_overrides WHERE name = $1), s.labels) AS labels FROM schedulers s WHERE s.name = $1`,
    [name],
  );
  return rows[0]?.labels ?? null;
}

/**
 * Whether an authorised identity may act on this scheduler: always for an unlimited one; for a limited one,
 * only when its grant covers the scheduler as it is labelled now (an unknown scheduler is not covered by a
 * selector: the refusal never says whether it exists). Null: it may; else the refusal.
 */
export async function authorizeScheduler(db: Pick<pg.Pool, 'query'>, identity: OperatorIdentity, name: string): Promise<WriteRefusal | null> {
  if (identity.grant === null) return null;
  const labels = identity.grant.target.kind === 'selector' ? await labelsOf(db, name) : null;
  if (coversScheduler(identity.grant, name, labels)) return null;
  return { status: 403, code: 'forbidden', message: `${identity.who} may act only on ${describeTarget(identity.grant)}; ${name} is not one of them` };
}

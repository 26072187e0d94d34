/**
 * Service tokens over HTTP, for admins: list, create (the token shown once),
 * revoke. Framework-free: `Request` in, `Response` out; the writes and their
 * guarantees are ./service-token-store.ts's (shared with `leaseboard tokens`).
 *
 * Guarantees
 * - Admin only: an unlimited identity with the admin role (an OpenID Connect
 *   admin group); anyone else gets 403 before a body is read or a row
 *   listed. Writes pass the same-origin gate first (../auth/guard.ts).
 * - A live token's name is unique (409 `name_taken`); more than
 *   SERVICE_TOKENS_LIVE live tokens is 409 `too_many_tokens`; a selector that
 *   does not parse, or a bad scheduler name, is a 400 naming it; an unknown
 *   token → 404.
 */
import { ServiceTokenCreateRequestSchema, ServiceTokenRevokeRequestSchema } from '../api/schemas';
import type { ServiceTokenCreated, ServiceTokenList } from '../api/types';
import { checkSameOrigin } from '../auth/csrf';
import { established, type OperatorIdentity, resolveIdentity } from '../auth/identity';
import { guarded, json } from '../http/respond';
import type { ActionDeps } from './http';
import { BODY_LIMITS, fail, readBody } from './respond';
import { type CreateResult, createRefusal, createServiceToken, listServiceTokens, revokeServiceToken, SERVICE_TOKEN_ID } from './service-token-store';

const CREATE_REFUSED: Record<Exclude<CreateResult['kind'], 'created'>, [number, string]> = {
  invalid: [400, 'invalid_body'],
  name_taken: [409, 'name_taken'],
  too_many: [409, 'too_many_tokens'],
};

/** The admin this request comes from, or the 403 to send. */
async function admin(
  request: Request,
  deps: ActionDeps,
  write: boolean,
): Promise<{ ok: true; identity: OperatorIdentity } | { ok: false; response: Response }> {
  if (write) {
    const origin = checkSameOrigin(deps.auth, request.headers);
    if (!origin.ok) return { ok: false, response: fail(403, 'cross_site', origin.message) };
  }
  const identity = await resolveIdentity(deps, request.headers, deps.nowMs());
  if (identity.role !== 'admin' || identity.grant !== null) {
    return { ok: false, response: fail(403, 'forbidden', 'service tokens are managed by admins only') };
  }
  return { ok: true, identity };
}

/** GET /api/v1/tokens — every token (live first, newest first), with its last use; never a secret. */
export function listServiceTokensRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('service-tokens-list', async () => {
    const gate = await admin(request, deps, false);
    if (!gate.ok) return gate.response;
    const answer: ServiceTokenList = { tokens: await listServiceTokens(deps.writer) };
    return json(answer, 200, { 'cache-control': 'no-store' });
  });
}

/** POST /api/v1/tokens — a new token, shown once. */
export function createServiceTokenRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('service-token-create', async () => {
    const gate = await admin(request, deps, true);
    if (!gate.ok) return gate.response;
    const body = await readBody(request, ServiceTokenCreateRequestSchema, { maxBytes: BODY_LIMITS.serviceToken, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const made = await createServiceToken(deps.writer, body.value, { by: gate.identity.who, identifiedBy: established(gate.identity) });
    if (made.kind === 'created') {
      const answer: ServiceTokenCreated = made.token;
      return json(answer, 201, { 'cache-control': 'no-store' });
    }
    const [status, code] = CREATE_REFUSED[made.kind];
    return fail(status, code, createRefusal(made, body.value.name));
  });
}

/** DELETE /api/v1/tokens/{id} — revoke: its next use gets 401. */
export function revokeServiceTokenRoute(request: Request, rawId: string, deps: ActionDeps): Promise<Response> {
  return guarded('service-token-revoke', async () => {
    const gate = await admin(request, deps, true);
    if (!gate.ok) return gate.response;
    if (!SERVICE_TOKEN_ID.test(rawId)) return fail(400, 'invalid_parameter', 'id: a service token id (12 hex characters)');
    const body = await readBody(request, ServiceTokenRevokeRequestSchema, { maxBytes: BODY_LIMITS.serviceToken, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const revoked = await revokeServiceToken(deps.writer, rawId, {
      by: gate.identity.who,
      identifiedBy: established(gate.identity),
      reason: body.value.reason,
    });
    if (revoked === null) return fail(404, 'not_found', `no live service token ${rawId}`);
    return json(revoked);
  });
}

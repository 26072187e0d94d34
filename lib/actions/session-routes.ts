/**
 * Local operator sessions over HTTP: who you are, sign in with the operator
 * token, sign out. Framework-free: `Request` in, `Response` out.
 *
 * Guarantees
 * - Sign-in and sign-out pass the same-origin gate (lib/auth/csrf.ts) before
 *   anything else; sign-in reads a body of at most BODY_LIMITS.signIn bytes.
 * - A client that failed SIGN_IN_FAILURES.failures times in its window gets 429
 *   with Retry-After before its token is even compared; every failure is
 *   logged without the token (./sign-in-limit.ts).
 * - Sign-out ends the session (token or OpenID Connect) in the store (every
 *   instance, at once) and clears the cookies; for an OpenID Connect session
 *   it answers the provider's end-session URL when the provider has one; a cookie replayed afterwards counts for nothing.
 */
import { SignInRequestSchema } from '../api/schemas';
import type { SessionResponse } from '../api/types';
import { checkSameOrigin } from '../auth/csrf';
import { resolveIdentity } from '../auth/identity';
import { clearedSessionCookie, issueSession, readSession, sessionCookie, tokenMatches } from '../auth/session';
import { clearedOidcSessionCookie, oidcSessionValue } from '../auth/oidc/cookies';
import { endSessionUrl, readOidcSession } from '../auth/oidc/flow';
import { clientKey } from '../http/client-key';
import { guarded, json } from '../http/respond';
import type { ActionDeps } from './http';
import { BODY_LIMITS, fail, readBody } from './respond';

async function sessionOf(request: Request, deps: ActionDeps): Promise<SessionResponse> {
  const identity = await resolveIdentity(deps, request.headers, deps.nowMs());
  return { role: identity.role, who: identity.who, via: identity.via, localSignIn: deps.auth.operatorToken !== null, oidcSignIn: deps.auth.oidc !== null };
}

/** GET /api/v1/session — who you are here (never an error). */
export function sessionRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('session', async () => json(await sessionOf(request, deps)));
}

/** POST /api/v1/session — exchange the local operator token for a session cookie. */
export function signInRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('sign-in', async () => {
    const origin = checkSameOrigin(deps.auth, request.headers);
    if (!origin.ok) return fail(403, 'cross_site', origin.message);
    if (deps.auth.operatorToken === null) return fail(404, 'not_found', 'local sign-in is off (no LEASEBOARD_OPERATOR_TOKEN)');
    const body = await readBody(request, SignInRequestSchema, { maxBytes: BODY_LIMITS.signIn, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const attempt = { client: clientKey(deps.auth.proxies, request.headers), name: body.value.name };
    // Spent before the comparison, so parallel guesses cannot all pass a check made before any failed (./sign-in-limit.ts).
    const retryAfterS = await deps.signIns.attempt(attempt);
    if (retryAfterS !== null) {
      return fail(429, 'rate_limited', `too many failed sign-ins from this client; retry in ${retryAfterS} s`, { 'retry-after': String(retryAfterS) });
    }
    if (!tokenMatches(deps.auth, body.value.token)) {
      await deps.signIns.failed(attempt, 'not the operator token');
      return fail(403, 'forbidden', 'that is not the operator token');
    }
    await deps.signIns.succeeded(attempt);
    const issued = await issueSession(deps, body.value.name, deps.nowMs());
    const answer: SessionResponse = { role: 'operator', who: issued.session.who, via: 'session', localSignIn: true, oidcSignIn: deps.auth.oidc !== null };
    return json(answer, 200, { 'set-cookie': sessionCookie(deps.auth, issued.value, deps.basePath) });
  });
}

/** DELETE /api/v1/session — sign out: the session (token or OpenID Connect) ends in the store, and the cookies are cleared. */
export function signOutRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('sign-out', async () => {
    const origin = checkSameOrigin(deps.auth, request.headers);
    if (!origin.ok) return fail(403, 'cross_site', origin.message);
    const cookies = request.headers.get('cookie');
    const session = await readSession(deps, cookies, deps.nowMs());
    if (session !== null) await deps.sessions.revoke(session.id);
    let providerSignOut: string | null = null;
    if (deps.auth.oidc !== null) {
      const oidc = await readOidcSession(deps, oidcSessionValue(deps.auth, cookies), deps.nowMs());
      if (oidc !== null) {
        await deps.sessions.revoke(oidc.session.id);
        providerSignOut = await endSessionUrl(deps.auth);
      }
    }
    const answer: SessionResponse = {
      role: 'viewer',
      who: null,
      via: 'anonymous',
      localSignIn: deps.auth.operatorToken !== null,
      oidcSignIn: deps.auth.oidc !== null,
      providerSignOut,
    };
    const response = json(answer);
    response.headers.append('set-cookie', clearedSessionCookie(deps.auth, deps.basePath));
    if (deps.auth.oidc !== null) response.headers.append('set-cookie', clearedOidcSessionCookie(deps.auth, deps.basePath));
    return response;
  });
}

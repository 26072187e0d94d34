/**
 * OpenID Connect sign-in over HTTP: start at the provider, come back with a
 * code. Framework-free: `Request` in, `Response` out. Sign-out is
 * DELETE /api/v1/session (./session-routes.ts), which ends either kind of
 * session.
 *
 * Guarantees
 * - 404 when OIDC sign-in is off (no LEASEBOARD_OIDC_ISSUER).
 * - The login route sets a sealed, short-lived cookie holding state, nonce
 *   and the PKCE verifier, and redirects to the provider.
 * - The callback signs in only when that cookie and the provider's answer
 *   verify (lib/auth/oidc/flow.ts); a tampered or replayed state or nonce, a
 *   provider error or an unknown sign-in is a 400 `{ error: { code, message } }`
 *   (403 when no group has a role), the sign-in cookie is cleared, and
 *   nothing is signed in or recorded.
 */
import { clearedOidcFlowCookie, oidcFlowCookie, oidcFlowValue, oidcSessionCookie } from '../auth/oidc/cookies';
import { beginSignIn, completeSignIn } from '../auth/oidc/flow';
import { guarded } from '../http/respond';
import type { ActionDeps } from './http';
import { fail } from './respond';

const off = () => fail(404, 'not_found', 'OpenID Connect sign-in is off (no LEASEBOARD_OIDC_ISSUER)');

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/** GET /api/v1/session/oidc/login?next=/path — off to the provider. `next`: the path to land on, already checked to be this dashboard's (lib/client/next-path.ts). */
export function oidcLoginRoute(next: string, deps: ActionDeps): Promise<Response> {
  return guarded('oidc-login', async () => {
    if (deps.auth.oidc === null) return off();
    const started = await beginSignIn(deps.auth, next, deps.nowMs());
    return redirect(started.url.href, [oidcFlowCookie(deps.auth, started.flow, deps.basePath)]);
  });
}

/** GET /api/v1/session/oidc/callback?code=…&state=… — back from the provider. */
export function oidcCallbackRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('oidc-callback', async () => {
    if (deps.auth.oidc === null) return off();
    const clearFlow = clearedOidcFlowCookie(deps.auth, deps.basePath);
    const done = await completeSignIn(deps, new URL(request.url), oidcFlowValue(deps.auth, request.headers.get('cookie')), deps.nowMs());
    if (!done.ok) {
      const refused = fail(done.refusal.status, done.refusal.code, done.refusal.message);
      refused.headers.append('set-cookie', clearFlow);
      return refused;
    }
    return redirect(`${deps.basePath}${done.next}`, [clearFlow, oidcSessionCookie(deps.auth, done.value, deps.basePath)]);
  });
}

/** What the sign-in page offers: OpenID Connect (its start URL), the operator token, and whether anonymous visitors read. */
export function signInChoices(deps: ActionDeps, next: string): { oidcUrl: string | null; token: boolean; anonymousReads: boolean } {
  return {
    oidcUrl: deps.auth.oidc === null ? null : `${deps.basePath}/api/v1/session/oidc/login?next=${encodeURIComponent(next)}`,
    token: deps.auth.operatorToken !== null,
    anonymousReads: deps.auth.anonymous === 'viewer',
  };
}

// GET /api/v1/session/oidc/callback — thin binding; logic and guarantees in lib/actions/oidc-routes.ts.
import { oidcCallbackRoute } from '@/lib/actions/oidc-routes';
import { actionDeps } from '@/lib/actions/instance';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return oidcCallbackRoute(request, actionDeps());
}

// GET /api/v1/session/oidc/login — thin binding; logic and guarantees in lib/actions/oidc-routes.ts.
import { oidcLoginRoute } from '@/lib/actions/oidc-routes';
import { actionDeps } from '@/lib/actions/instance';
import { nextPathOnServer } from '@/lib/client/next-path';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  // `next` is kept only when it is a path of this dashboard: no open redirect after signing in.
  return oidcLoginRoute(nextPathOnServer(new URL(request.url).searchParams.get('next')), actionDeps());
}

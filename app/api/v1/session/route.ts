// GET/POST/DELETE /api/v1/session — thin binding; logic and guarantees in lib/actions/http.ts.
import { sessionRoute, signInRoute, signOutRoute } from '@/lib/actions/session-routes';
import { actionDeps } from '@/lib/actions/instance';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return sessionRoute(request, actionDeps());
}

export function POST(request: Request): Promise<Response> {
  return signInRoute(request, actionDeps());
}

export function DELETE(request: Request): Promise<Response> {
  return signOutRoute(request, actionDeps());
}

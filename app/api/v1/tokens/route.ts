// GET, POST /api/v1/tokens — thin binding; logic and guarantees in lib/actions/service-tokens.ts.
import { actionDeps } from '@/lib/actions/instance';
import { createServiceTokenRoute, listServiceTokensRoute } from '@/lib/actions/service-tokens';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return listServiceTokensRoute(request, actionDeps());
}

export async function POST(request: Request): Promise<Response> {
  return createServiceTokenRoute(request, actionDeps());
}

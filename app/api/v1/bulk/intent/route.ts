// POST /api/v1/bulk/intent — thin binding; logic and guarantees in lib/actions/fleet-routes.ts.
import { bulkIntentRoute } from '@/lib/actions/fleet-routes';
import { actionDeps } from '@/lib/actions/instance';

export function POST(request: Request): Promise<Response> {
  return bulkIntentRoute(request, actionDeps());
}

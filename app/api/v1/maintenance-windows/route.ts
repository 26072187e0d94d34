// GET, POST /api/v1/maintenance-windows — thin bindings; logic in lib/server/http/maintenance-route.ts and lib/actions/fleet-routes.ts.
import { createWindowRoute } from '@/lib/actions/fleet-routes';
import { actionDeps } from '@/lib/actions/instance';
import { heavyGate, maintenanceListRoute, statusService } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return maintenanceListRoute(request, statusService, heavyGate());
}

export function POST(request: Request): Promise<Response> {
  return createWindowRoute(request, actionDeps());
}

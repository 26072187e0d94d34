// GET /api/v1/alerts — thin binding; logic in lib/server/http/alerts-route.ts.
import { alertsRoute, heavyGate, statusService } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return alertsRoute(request, statusService, heavyGate());
}

// GET /api/v1/upcoming?selector=… — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, statusService, upcomingRoute } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return upcomingRoute(request, statusService, heavyGate());
}

// GET /api/v1/reliability?window=24h|7d|30d&selector=…[&format=csv] — thin binding; logic in lib/server/http/handlers.ts.
import { groupReliabilityRoute, heavyGate, statusService } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return groupReliabilityRoute(request, statusService, heavyGate());
}

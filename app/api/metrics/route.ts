// GET /api/metrics — Prometheus text; thin binding; logic in lib/server/http/handlers.ts.
import { metricsRoute, statusService } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return metricsRoute(request, statusService);
}

// GET /api/metrics — Prometheus text; thin binding; logic in lib/server/http/handlers.ts.
import { metricsRoute, statusService } from '@/lib/server';

export function GET(): Promise<Response> {
  return metricsRoute(statusService);
}

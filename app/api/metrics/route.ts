// GET /api/metrics — Prometheus text; thin binding; logic in lib/server/http/handlers.ts.
import { statusService } from '@/lib/server';
import { metricsRoute } from '@/lib/server/http/handlers';

export function GET(): Promise<Response> {
  return metricsRoute(statusService);
}

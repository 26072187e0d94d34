// GET /api/healthz — the status service's own health; thin binding; logic in lib/server/http/handlers.ts.
import { healthzRoute, statusService } from '@/lib/server';

export function GET(): Promise<Response> {
  return healthzRoute(statusService);
}

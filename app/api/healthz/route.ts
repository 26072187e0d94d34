// GET /api/healthz — the status service's own health; thin binding; logic in lib/server/http/handlers.ts.
import { statusService } from '@/lib/server';
import { healthzRoute } from '@/lib/server/http/handlers';

export function GET(): Promise<Response> {
  return healthzRoute(statusService);
}

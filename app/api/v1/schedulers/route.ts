// GET /api/v1/schedulers — thin binding; logic and guarantees in lib/server/http/handlers.ts.
import { listRoute, statusService } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return listRoute(request, statusService);
}

// GET /api/v1/schedulers — thin binding; logic and guarantees in lib/server/http/handlers.ts.
import { statusService } from '@/lib/server';
import { listRoute } from '@/lib/server/http/handlers';

export function GET(request: Request): Promise<Response> {
  return listRoute(request, statusService);
}

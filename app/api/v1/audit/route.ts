// GET /api/v1/audit — thin binding; logic in lib/server/http/audit-route.ts.
import { heavyGate, statusService } from '@/lib/server';
import { auditRoute } from '@/lib/server/http/audit-route';

export function GET(request: Request): Promise<Response> {
  return auditRoute(request, statusService, heavyGate());
}

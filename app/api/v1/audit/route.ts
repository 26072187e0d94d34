// GET /api/v1/audit — thin binding; logic in lib/server/http/audit-route.ts.
import { auditRoute, heavyGate, statusService } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return auditRoute(request, statusService, heavyGate());
}

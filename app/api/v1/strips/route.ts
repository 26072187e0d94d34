// GET /api/v1/strips?window=&name=… | ?window=&worst=&q=&limit=&offset= — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, statusService, stripsRoute } from '@/lib/server';

export function GET(request: Request): Promise<Response> {
  return stripsRoute(request, statusService, heavyGate());
}

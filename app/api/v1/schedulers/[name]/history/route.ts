// GET /api/v1/schedulers/{name}/history?from=&to= — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, historyRoute, statusService } from '@/lib/server';

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return historyRoute(request, name, statusService, heavyGate());
}

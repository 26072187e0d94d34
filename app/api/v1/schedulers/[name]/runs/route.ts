// GET /api/v1/schedulers/{name}/runs?limit=N — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, runsRoute, statusService } from '@/lib/server';

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return runsRoute(request, name, statusService, heavyGate());
}

// GET /api/v1/schedulers/{name}/reliability?window=24h|7d|30d[&format=csv] — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, reliabilityRoute, statusService } from '@/lib/server';

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return reliabilityRoute(request, name, statusService, heavyGate());
}

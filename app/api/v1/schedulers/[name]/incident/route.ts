// GET /api/v1/schedulers/{name}/incident?from=…&to=…[&format=md] — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, incidentRoute, servedBasePath, servedPublicUrl, statusService } from '@/lib/server';

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return incidentRoute(request, name, statusService, heavyGate(), servedPublicUrl(), servedBasePath());
}

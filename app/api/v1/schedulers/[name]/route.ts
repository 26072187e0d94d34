// GET /api/v1/schedulers/{name}[?at=ISO] — thin binding; logic in lib/server/http/handlers.ts.
import { detailRoute, heavyGate, statusService } from '@/lib/server';

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return detailRoute(request, name, statusService, heavyGate());
}

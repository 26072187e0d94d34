// GET /api/v1/schedulers/{name}[?at=ISO] — thin binding; logic in lib/server/http/handlers.ts.
import { heavyGate, statusService } from '@/lib/server';
import { detailRoute } from '@/lib/server/http/handlers';

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return detailRoute(request, name, statusService, heavyGate());
}

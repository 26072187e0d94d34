// POST /api/demo/processes/{id}/{action} — thin binding; gate and forwarding in lib/demo/control-client.ts.
import { actionDeps } from '@/lib/actions/instance';
import { demoActionRoute } from '@/lib/demo/control-client';

export async function POST(request: Request, context: { params: Promise<{ id: string; action: string }> }): Promise<Response> {
  const { id, action } = await context.params;
  return demoActionRoute(request, id, action, actionDeps());
}

// POST /api/demo/processes/{id}/{action} — demo mode only; see lib/demo/control-client.ts.
import { forwardToSupervisor } from '@/lib/demo/control-client';

export async function POST(_request: Request, context: { params: Promise<{ id: string; action: string }> }): Promise<Response> {
  const { id, action } = await context.params;
  return forwardToSupervisor('POST', `/processes/${encodeURIComponent(id)}/${encodeURIComponent(action)}`);
}

// DELETE /api/v1/tokens/{id} — thin binding; logic and guarantees in lib/actions/service-tokens.ts.
import { actionDeps } from '@/lib/actions/instance';
import { revokeServiceTokenRoute } from '@/lib/actions/service-tokens';

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return revokeServiceTokenRoute(request, id, actionDeps());
}

// DELETE /api/v1/schedulers/{name}/report-tokens/{id} — thin binding; logic and guarantees in lib/actions/report-tokens.ts.
import { actionDeps } from '@/lib/actions/instance';
import { revokeReportTokenRoute } from '@/lib/actions/report-tokens';

export async function DELETE(request: Request, { params }: { params: Promise<{ name: string; id: string }> }): Promise<Response> {
  const { name, id } = await params;
  return revokeReportTokenRoute(request, name, id, actionDeps());
}

// PUT /api/v1/alerts/rules/{rule}/mode — thin binding; logic and guarantees in lib/actions/http.ts.
import { alertModeRoute } from '@/lib/actions/http';
import { actionDeps } from '@/lib/actions/instance';

export async function PUT(request: Request, { params }: { params: Promise<{ rule: string }> }): Promise<Response> {
  const { rule } = await params;
  return alertModeRoute(request, rule, actionDeps());
}

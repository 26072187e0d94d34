// PUT /api/v1/schedulers/{name}/labels — thin binding; logic and guarantees in lib/actions/http.ts.
import { labelsRoute } from '@/lib/actions/http';
import { actionDeps } from '@/lib/actions/instance';

export async function PUT(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return labelsRoute(request, name, actionDeps());
}

// POST /api/v1/schedulers/{name}/run-now — thin binding; logic and guarantees in lib/actions/http.ts and lib/actions/run-now.ts.
import { runNowRoute } from '@/lib/actions/http';
import { actionDeps } from '@/lib/actions/instance';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return runNowRoute(request, name, actionDeps());
}

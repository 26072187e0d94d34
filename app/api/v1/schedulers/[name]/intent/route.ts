// POST /api/v1/schedulers/{name}/intent — thin binding; logic and guarantees in lib/actions/http.ts.
import { intentRoute } from '@/lib/actions/http';
import { actionDeps } from '@/lib/actions/instance';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return intentRoute(request, name, actionDeps());
}

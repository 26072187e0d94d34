// POST /api/v1/schedulers/{name}/report-tokens — thin binding; logic and guarantees in lib/actions/report-tokens.ts.
import { actionDeps } from '@/lib/actions/instance';
import { createReportTokenRoute } from '@/lib/actions/report-tokens';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return createReportTokenRoute(request, name, actionDeps());
}

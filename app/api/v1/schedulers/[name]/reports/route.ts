// POST /api/v1/schedulers/{name}/reports — thin binding; logic and guarantees in lib/ingest/report-route.ts.
import { ingestDeps } from '@/lib/ingest/instance';
import { reportRoute } from '@/lib/ingest/report-route';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return reportRoute(request, name, ingestDeps());
}

// PUT /api/v1/teams/{team}/owner — thin binding; logic and guarantees in lib/actions/fleet-routes.ts.
import { teamOwnerRoute } from '@/lib/actions/fleet-routes';
import { actionDeps } from '@/lib/actions/instance';

export async function PUT(request: Request, { params }: { params: Promise<{ team: string }> }): Promise<Response> {
  return teamOwnerRoute(request, (await params).team, actionDeps());
}

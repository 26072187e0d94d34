// PUT, DELETE /api/v1/maintenance-windows/{id} — thin bindings; logic and guarantees in lib/actions/fleet-routes.ts.
import { cancelWindowRoute, editWindowRoute } from '@/lib/actions/fleet-routes';
import { actionDeps } from '@/lib/actions/instance';

type Params = { params: Promise<{ id: string }> };

export async function PUT(request: Request, { params }: Params): Promise<Response> {
  return editWindowRoute(request, (await params).id, actionDeps());
}

export async function DELETE(request: Request, { params }: Params): Promise<Response> {
  return cancelWindowRoute(request, (await params).id, actionDeps());
}

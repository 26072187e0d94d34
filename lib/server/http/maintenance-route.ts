/**
 * GET /api/v1/maintenance-windows: every maintenance window kept, newest
 * first, with where each stands now (scheduled, open, ended, cancelled).
 * Readable by every visitor, like the audit trail. Bounded by the table
 * (at most 200 rows, db/schema.ts).
 */
import { errorResponse, guarded } from '../../http/respond';
import { respond, type ServiceSource } from './handlers';
import { type HeavyGate, OPEN_GATE } from './heavy-gate';
import { httpResult } from './result';

export function maintenanceListRoute(request: Request, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('maintenance-list', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    return respond(httpResult(await service().maintenanceWindows()));
  });
}

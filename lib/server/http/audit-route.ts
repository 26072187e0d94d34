/**
 * GET /api/v1/audit[?scheduler=NAME&limit=N]: the operator audit trail,
 * newest first. Readable by every visitor (viewers see who did what and why).
 * Guarantees: `limit` clamped to [1, AUDIT_LIMIT_MAX]; a bad name → 400.
 */
import { checkName } from '../../http/params';
import { errorResponse, guarded } from '../../http/respond';
import { AUDIT_LIMIT_DEFAULT, AUDIT_LIMIT_MAX } from '../audit/read';
import { respond, type ServiceSource } from './handlers';
import { type HeavyGate, OPEN_GATE } from './heavy-gate';
import { httpResult } from './result';

export function auditRoute(request: Request, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('audit', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const query = new URL(request.url).searchParams;
    const rawName = query.get('scheduler');
    let scheduler: string | null = null;
    if (rawName !== null) {
      const name = checkName(rawName);
      if (!name.ok) return errorResponse(name.error);
      scheduler = name.value;
    }
    const rawLimit = Number(query.get('limit') ?? AUDIT_LIMIT_DEFAULT);
    const limit = Number.isFinite(rawLimit) ? Math.min(AUDIT_LIMIT_MAX, Math.max(1, Math.trunc(rawLimit))) : AUDIT_LIMIT_DEFAULT;
    return respond(httpResult(await service().audit({ scheduler, limit })));
  });
}

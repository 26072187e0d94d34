/**
 * GET /api/v1/alerts[?limit=N]: rules and their modes, per-scheduler
 * overrides, the alerts that are not inactive and the delivery status.
 * Readable by every visitor. `limit` 0 answers the counts only (the header
 * badge polls that).
 * Guarantees: `limit` is a whole number clamped to [0, ALERTS_LIMIT_MAX]
 * (default ALERTS_LIMIT_DEFAULT); anything else → 400.
 */
import { badRequest, errorResponse, guarded } from '../../http/respond';
import { ALERTS_LIMIT_DEFAULT, ALERTS_LIMIT_MAX } from '../alerts/read';
import { alertsAnswer } from './answers';
import { respond, type ServiceSource } from './handlers';
import { type HeavyGate, OPEN_GATE } from './heavy-gate';

export function alertsRoute(request: Request, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('alerts', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const raw = new URL(request.url).searchParams.get('limit');
    if (raw !== null && !/^\d{1,9}$/.test(raw)) return badRequest('limit: a whole number of alerts');
    const limit = raw === null ? ALERTS_LIMIT_DEFAULT : Math.min(ALERTS_LIMIT_MAX, Number(raw));
    return respond(await alertsAnswer(service(), limit));
  });
}

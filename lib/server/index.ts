/**
 * The status service for Next.js server code (route handlers, server
 * components). Server-only: importing it from a client component fails the
 * build. The one door for app/ (lint-enforced): reads for server components
 * and the route handlers. Tests, scripts and jobs import the modules directly.
 *
 * Guarantees: the reads return exactly the lib/api/types.ts bodies or the
 * error the API would send for the same request (./http/answers.ts: 400
 * input, 404 unknown name, 410 older than kept, 503 store unreadable or
 * busy); the list never fails for a dead store — it answers
 * `observation.ok=false` with every scheduler unknown. All reads share one
 * process-wide pool.
 */
import 'server-only';
import type { AlertsResponse, SchedulerDetailResponse, SchedulerListResponse } from '../api/types';
import { statusService } from './instance';
import { alertsAnswer, detailAnswer } from './http/answers';
import type { HttpResult } from './http/result';
import type { ListParams } from './live/list-params';

export type { HttpResult } from './http/result';
export type { ListParams } from './live/list-params';
export { heavyGate, statusService } from './instance';
export {
  detailRoute,
  groupReliabilityRoute,
  healthzRoute,
  historyRoute,
  incidentRoute,
  listRoute,
  metricsRoute,
  openApiRoute,
  reliabilityRoute,
  runsRoute,
  stripsRoute,
  upcomingRoute,
} from './http/handlers';
export { auditRoute } from './http/audit-route';
export { maintenanceListRoute } from './http/maintenance-route';
export { alertsRoute } from './http/alerts-route';
export { readRunbook } from './runbooks';
export { servedBasePath, servedPublicUrl } from './env';

/** GET /api/v1/schedulers. Numbers are clamped; the result is always ok (a dead store is reported inside). */
export async function readSchedulerList(params: ListParams = {}): Promise<HttpResult<SchedulerListResponse>> {
  return { ok: true, value: await statusService().list(params) };
}

/** GET /api/v1/schedulers/{name}[?at=ISO]. */
export function readSchedulerDetail(name: string, at?: string | null): Promise<HttpResult<SchedulerDetailResponse>> {
  return detailAnswer(statusService(), name, at);
}

/** GET /api/v1/alerts?limit=N: rules, modes, alerts (at most `limit`), delivery. */
export function readAlertList(limit: number): Promise<HttpResult<AlertsResponse>> {
  return alertsAnswer(statusService(), limit);
}

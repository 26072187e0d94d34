/**
 * The status reads as the API answers them: raw input parsed (./params.ts,
 * ../../http/params.ts), the service asked, its result mapped to HTTP
 * (./result.ts). The route handlers (./handlers.ts, ./alerts-route.ts) send
 * these; the dashboard's server-side render (../index.ts) shows them — one
 * path, so a page and the API never disagree.
 *
 * Guarantees: input is parsed before any read; bad input → 400 naming the
 * field, and the service is not asked.
 */
import type {
  IncidentResponse,
  SchedulerRunsResponse,
  UpcomingResponse,
  AlertsResponse,
  GroupReliabilityResponse,
  ReliabilityResponse,
  SchedulerDetailResponse,
  SchedulerHistoryResponse,
  StripsResponse,
} from '../../api/types';
import { checkName } from '../../http/params';
import type { StatusService } from '../service';
import {
  parseRunsLimit,
  parseUpcomingQuery,
  parseGroupReliabilityQuery,
  parseInstant,
  parseOptionalInstant,
  parseReliabilityWindow,
  parseStripsQuery,
} from './params';
import { httpResult, type HttpResult } from './result';

/** GET /api/v1/schedulers/{name}[?at=ISO]: absent `at` is live; an empty one is bad input. */
export async function detailAnswer(service: StatusService, rawName: string, rawAt?: string | null): Promise<HttpResult<SchedulerDetailResponse>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  const at = rawAt == null ? ({ ok: true, value: null } as const) : parseInstant(rawAt, 'at');
  if (!at.ok) return at;
  return httpResult(await service.detail(name.value, at.value));
}

/** GET /api/v1/schedulers/{name}/history?from=&to=: absent or empty instants take the defaults. */
export async function historyAnswer(
  service: StatusService,
  rawName: string,
  rawFrom?: string | null,
  rawTo?: string | null,
): Promise<HttpResult<SchedulerHistoryResponse>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  const from = parseOptionalInstant(rawFrom, 'from');
  if (!from.ok) return from;
  const to = parseOptionalInstant(rawTo, 'to');
  if (!to.ok) return to;
  return httpResult(await service.history(name.value, from.value, to.value));
}

/** GET /api/v1/alerts?limit=N, `limit` already clamped. */
export async function alertsAnswer(service: StatusService, limit: number): Promise<HttpResult<AlertsResponse>> {
  return httpResult(await service.alerts(limit));
}

/** GET /api/v1/strips?window=…&name=…, or ranked: ?window=…&worst=…&q=…&limit=…&offset=… */
export async function stripsAnswer(service: StatusService, query: URLSearchParams): Promise<HttpResult<StripsResponse>> {
  const parsed = parseStripsQuery(query);
  if (!parsed.ok) return parsed;
  return httpResult(await service.strips(parsed.value));
}

/** GET /api/v1/schedulers/{name}/reliability?window=24h|7d|30d */
export async function reliabilityAnswer(service: StatusService, rawName: string, query: URLSearchParams): Promise<HttpResult<ReliabilityResponse>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  const window = parseReliabilityWindow(query);
  if (!window.ok) return window;
  return httpResult(await service.reliability(name.value, window.value));
}

/** GET /api/v1/reliability?window=…&selector=… */
export async function groupReliabilityAnswer(service: StatusService, query: URLSearchParams): Promise<HttpResult<GroupReliabilityResponse>> {
  const parsed = parseGroupReliabilityQuery(query);
  if (!parsed.ok) return parsed;
  return httpResult(await service.groupReliability(parsed.value));
}

/** GET /api/v1/schedulers/{name}/runs?limit=N */
export async function runsAnswer(service: StatusService, rawName: string, query: URLSearchParams): Promise<HttpResult<SchedulerRunsResponse>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  const limit = parseRunsLimit(query);
  if (!limit.ok) return limit;
  return httpResult(await service.runs(name.value, limit.value));
}

/** GET /api/v1/upcoming?selector=…&limit=N */
export async function upcomingAnswer(service: StatusService, query: URLSearchParams): Promise<HttpResult<UpcomingResponse>> {
  const parsed = parseUpcomingQuery(query);
  if (!parsed.ok) return parsed;
  return httpResult(await service.upcoming(parsed.value.picks, parsed.value.limit));
}

/** GET /api/v1/schedulers/{name}/incident?from=&to=: both instants required; links under `linkBase`. */
export async function incidentAnswer(service: StatusService, rawName: string, query: URLSearchParams, linkBase: string): Promise<HttpResult<IncidentResponse>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  const from = parseInstant(query.get('from') ?? '', 'from');
  if (!from.ok) return from;
  const to = parseInstant(query.get('to') ?? '', 'to');
  if (!to.ok) return to;
  return httpResult(await service.incident(name.value, from.value, to.value, linkBase));
}

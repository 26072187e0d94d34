/**
 * Browser-side HTTP calls to the status service (API v1) and the demo
 * supervisor, all through `withBasePath` so they work under a proxy prefix.
 *
 * Guarantees: every successful answer is wrapped as `Observed<T>` with the
 * local time its request was SENT (a lower bound on when the server read the
 * store, so ages derived from it are never understated); a non-2xx answer
 * throws `ApiRequestError` carrying the status and the API's error code.
 * Non-guarantees: no retries here (TanStack Query owns retry policy).
 */
import type {
  ApiError,
  DrillAction,
  DemoActionRequest,
  DemoProcessesResponse,
  SchedulerDetailResponse,
  SchedulerHistoryResponse,
  SchedulerListResponse,
  StripsResponse,
} from '@/lib/api/types';
import type { RetentionRefusal } from '@/lib/api/types';
import type { AuditResponse, GroupReliabilityResponse, IntentRequest, IntentResponse, RunNowResponse, SessionResponse, SignInRequest } from '@/lib/api/types';
import type { SchedulerRunsResponse, UpcomingResponse } from '@/lib/api/types';
import type { ServiceTokenCreated, ServiceTokenCreateRequest, ServiceTokenInfo, ServiceTokenList } from '@/lib/api/types';
import type { AlertModeRequest, AlertModeResponse, AlertRuleName, AlertsResponse, MaintenanceListResponse } from '@/lib/api/types';
import { withBasePath } from './base-path';
import { retentionRefusalOf, type HistoryAnswer } from './history-answer';
import { localNow, type LocalStamp } from './local-clock';
import { listSearchParams, stripsSearchParams, type SchedulerListParams } from './list-params';

/** An answer and where/when it was observed: `server` = rendered into the page by the server. */
export type Observed<T> =
  | { body: T; via: 'browser'; sentAt: LocalStamp }
  /** `pageNames`: the whole page's names, when the server sent only its first rows (lib/client/first-paint.ts). */
  | { body: T; via: 'server'; pageNames?: readonly string[] };

export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  /** With 410 `outside_retention`: the oldest instant kept and the retention. */
  readonly retention: RetentionRefusal | null;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options?: { cause?: unknown; retention?: RetentionRefusal },
  ) {
    super(`api: ${status} ${code}: ${message}`, options);
    this.retention = options?.retention ?? null;
  }
}

async function errorFrom(response: Response): Promise<ApiRequestError> {
  try {
    const body = (await response.json()) as Partial<ApiError>;
    if (body.error) return new ApiRequestError(response.status, body.error.code, body.error.message, { retention: body.error.retention });
  } catch (cause) {
    return new ApiRequestError(response.status, 'unreadable_error', response.statusText, { cause });
  }
  return new ApiRequestError(response.status, 'unknown_error', response.statusText);
}

async function getJson<T>(path: string, signal?: AbortSignal): Promise<Observed<T>> {
  const sentAt = localNow();
  const response = await fetch(withBasePath(path), { signal, cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) throw await errorFrom(response);
  return { body: (await response.json()) as T, via: 'browser', sentAt };
}

export function fetchSchedulerList(params: SchedulerListParams, signal?: AbortSignal, names: readonly string[] | null = null) {
  return getJson<SchedulerListResponse>(`/api/v1/schedulers?${listSearchParams(params, names)}`, signal);
}

export function fetchStrips(params: SchedulerListParams, names: readonly string[] | null, signal?: AbortSignal) {
  return getJson<StripsResponse>(`/api/v1/strips?${stripsSearchParams(params, names)}`, signal);
}

export function fetchSchedulerDetail(name: string, at: string | null, signal?: AbortSignal) {
  const query = at ? `?at=${encodeURIComponent(at)}` : '';
  return getJson<SchedulerDetailResponse>(`/api/v1/schedulers/${encodeURIComponent(name)}${query}`, signal);
}

/**
 * Without `to`, the server picks "now" on its own clock and the window ends there; without `from`,
 * it starts an hour before `to`, or at the oldest instant kept.
 */
function fetchSchedulerHistory(name: string, window: { to: string } | null, signal?: AbortSignal) {
  const query = window ? `?to=${encodeURIComponent(window.to)}` : '';
  return getJson<SchedulerHistoryResponse>(`/api/v1/schedulers/${encodeURIComponent(name)}/history${query}`, signal);
}

/** The history, or (410 `outside_retention`) the answer that its window is no longer kept; other failures throw. */
export async function fetchHistoryAnswer(name: string, window: { to: string } | null, signal?: AbortSignal): Promise<Observed<HistoryAnswer>> {
  const sentAt = localNow();
  try {
    const { body } = await fetchSchedulerHistory(name, window, signal);
    return { body: { kind: 'history', history: body }, via: 'browser', sentAt };
  } catch (error) {
    const retention = error instanceof ApiRequestError ? retentionRefusalOf(error) : null;
    if (retention === null) throw error;
    return { body: { kind: 'outside_retention', retention }, via: 'browser', sentAt };
  }
}

export function fetchDemoProcesses(signal?: AbortSignal) {
  return getJson<DemoProcessesResponse>('/api/demo/processes', signal);
}

/**
 * A write: same-origin, with the header every write route requires
 * (lib/auth/csrf.ts). Resolves only with what the server confirmed.
 */
async function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(withBasePath(path), {
    method,
    cache: 'no-store',
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'x-leaseboard-action': '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}

/** A fault drill, with the operator's reason (audited like every operator action). */
export async function postDemoAction(id: string, action: DrillAction, request: DemoActionRequest): Promise<void> {
  await send<unknown>('POST', `/api/demo/processes/${encodeURIComponent(id)}/${action}`, request);
}

export function postIntent(name: string, request: IntentRequest): Promise<IntentResponse> {
  return send<IntentResponse>('POST', `/api/v1/schedulers/${encodeURIComponent(name)}/intent`, request);
}

export function putAlertMode(rule: AlertRuleName, request: AlertModeRequest): Promise<AlertModeResponse> {
  return send<AlertModeResponse>('PUT', `/api/v1/alerts/rules/${encodeURIComponent(rule)}/mode`, request);
}

/** `limit` 0: counts only (the header badge). */
export function fetchAlerts(limit: number, signal?: AbortSignal) {
  return getJson<AlertsResponse>(`/api/v1/alerts?limit=${limit}`, signal);
}

/** Every maintenance window kept, newest first. */
export function fetchMaintenanceWindows(signal?: AbortSignal) {
  return getJson<MaintenanceListResponse>('/api/v1/maintenance-windows', signal);
}

export function fetchSession(signal?: AbortSignal) {
  return getJson<SessionResponse>('/api/v1/session', signal);
}

export function signIn(request: SignInRequest): Promise<SessionResponse> {
  return send<SessionResponse>('POST', '/api/v1/session', request);
}

export function signOut(): Promise<SessionResponse> {
  return send<SessionResponse>('DELETE', '/api/v1/session');
}

export function fetchAudit(scheduler: string | null, signal?: AbortSignal) {
  return getJson<AuditResponse>(`/api/v1/audit${scheduler === null ? '' : `?scheduler=${encodeURIComponent(scheduler)}`}`, signal);
}

/** The reliability report of every scheduler a label selector picks ('': all), over a window. */
export function reliabilityPath(window: string, selector: string, format: 'json' | 'csv' = 'json'): string {
  const q = new URLSearchParams({ window });
  if (selector.trim() !== '') q.set('selector', selector);
  if (format === 'csv') q.set('format', 'csv');
  return `/api/v1/reliability?${q.toString()}`;
}

export function fetchGroupReliability(window: string, selector: string, signal?: AbortSignal) {
  return getJson<GroupReliabilityResponse>(reliabilityPath(window, selector), signal);
}

/** A scheduler's next occurrence and its last runs (newest first). */
export function fetchSchedulerRuns(name: string, signal?: AbortSignal) {
  return getJson<SchedulerRunsResponse>(`/api/v1/schedulers/${encodeURIComponent(name)}/runs`, signal);
}

/** What starts in the next hour among the schedulers a label selector picks ('': all), soonest first. */
export function upcomingPath(selector: string): string {
  return selector.trim() === '' ? '/api/v1/upcoming' : `/api/v1/upcoming?${new URLSearchParams({ selector }).toString()}`;
}

export function fetchUpcoming(selector: string, signal?: AbortSignal) {
  return getJson<UpcomingResponse>(upcomingPath(selector), signal);
}

/** Ask the current holder to start an occurrence now, with the operator's reason (audited). */
export function postRunNow(name: string, reason: string): Promise<RunNowResponse> {
  return send<RunNowResponse>('POST', `/api/v1/schedulers/${encodeURIComponent(name)}/run-now`, { reason });
}

/** Every service token kept (an admin's read), revoked ones included. */
export function fetchServiceTokens(signal?: AbortSignal) {
  return getJson<ServiceTokenList>('/api/v1/tokens', signal);
}

/** A new service token: the answer carries the whole token, the only time it is shown. */
export function createServiceToken(request: ServiceTokenCreateRequest): Promise<ServiceTokenCreated> {
  return send<ServiceTokenCreated>('POST', '/api/v1/tokens', request);
}

export function revokeServiceToken(id: string, reason: string): Promise<ServiceTokenInfo> {
  return send<ServiceTokenInfo>('DELETE', `/api/v1/tokens/${encodeURIComponent(id)}`, { reason });
}

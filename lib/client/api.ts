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
import type { ApiError, DemoAction, DemoProcessesResponse, SchedulerDetailResponse, SchedulerHistoryResponse, SchedulerListResponse } from '@/lib/api/types';
import { withBasePath } from './base-path';
import { localNow, type LocalStamp } from './local-clock';
import { listSearchParams, type SchedulerListParams } from './list-params';

/** An answer and where/when it was observed: `server` = rendered into the page by the server. */
export type Observed<T> = { body: T; via: 'browser'; sentAt: LocalStamp } | { body: T; via: 'server' };

export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`api: ${status} ${code}: ${message}`, options);
  }
}

async function errorFrom(response: Response): Promise<ApiRequestError> {
  try {
    const body = (await response.json()) as Partial<ApiError>;
    if (body.error) return new ApiRequestError(response.status, body.error.code, body.error.message);
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

export function fetchSchedulerList(params: SchedulerListParams, signal?: AbortSignal) {
  return getJson<SchedulerListResponse>(`/api/v1/schedulers?${listSearchParams(params)}`, signal);
}

export function fetchSchedulerDetail(name: string, at: string | null, signal?: AbortSignal) {
  const query = at ? `?at=${encodeURIComponent(at)}` : '';
  return getJson<SchedulerDetailResponse>(`/api/v1/schedulers/${encodeURIComponent(name)}${query}`, signal);
}

/** Without `to`, the server picks "now" on its own clock and the window ends there. */
export function fetchSchedulerHistory(name: string, window: { from: string; to: string } | null, signal?: AbortSignal) {
  const query = window ? `?from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}` : '';
  return getJson<SchedulerHistoryResponse>(`/api/v1/schedulers/${encodeURIComponent(name)}/history${query}`, signal);
}

export function fetchDemoProcesses(signal?: AbortSignal) {
  return getJson<DemoProcessesResponse>('/api/demo/processes', signal);
}

export async function postDemoAction(id: string, action: DemoAction): Promise<void> {
  const response = await fetch(withBasePath(`/api/demo/processes/${encodeURIComponent(id)}/${action}`), { method: 'POST' });
  if (!response.ok) throw await errorFrom(response);
}

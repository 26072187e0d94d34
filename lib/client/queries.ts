/**
 * One `queryOptions` object per query. The browser uses them as they are; the
 * server render prefetches with the same key and options, swapping only the
 * transport (`onServer`: a direct read instead of HTTP), then dehydrates.
 *
 * Polling follows the server-suggested `pollIntervalMs`; a status "as of" an
 * instant is history and is never polled. Refetch on focus and reconnect.
 * The lists skip react-query's structural sharing: every answer's observation
 * differs, so its deep comparison of a hundred rows (a phone's longest task
 * after load) kept nothing a row needs — rows compare their shown facts
 * (components/overview/scheduler-row.tsx). Strips keep it: a row re-renders
 * its strip only when the strip's object changed.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  fetchAlerts,
  fetchAudit,
  fetchMaintenanceWindows,
  fetchDemoProcesses,
  fetchSession,
  fetchHistoryAnswer,
  fetchSchedulerDetail,
  fetchSchedulerList,
  fetchStrips,
  type Observed,
  fetchGroupReliability,
  fetchSchedulerRuns,
  fetchUpcoming,
  fetchServiceTokens,
} from './api';
import type { SchedulerListParams } from './list-params';

/** Used until the first answer tells us the server's choice. */
export const FALLBACK_POLL_INTERVAL_MS = 2_000;
const HISTORY_POLL_INTERVAL_MS = 10_000;

function pollEvery(data: Observed<{ pollIntervalMs: number }> | undefined): number {
  const suggested = data?.body.pollIntervalMs;
  return typeof suggested === 'number' && suggested > 0 ? suggested : FALLBACK_POLL_INTERVAL_MS;
}

export const queryKeys = {
  all: ['schedulers'] as const,
  list: (params: SchedulerListParams) => ['schedulers', 'list', params] as const,
  listOf: (names: readonly string[]) => ['schedulers', 'list-of', names] as const,
  strips: (params: SchedulerListParams, names: readonly string[] | null) =>
    names === null
      ? (['strips', 'ranked', params.window, params.health, params.search, params.page] as const)
      : (['strips', 'rows', params.window, names] as const),
  detail: (name: string, at: string | null) => ['schedulers', 'detail', name, at] as const,
  history: (name: string, at: string | null) => ['schedulers', 'history', name, at] as const,
  demo: ['demo', 'processes'] as const,
  session: ['session'] as const,
  audit: (scheduler: string | null) => ['audit', scheduler] as const,
  alerts: ['alerts'] as const,
  reliability: (window: string, selector: string) => ['reliability', window, selector] as const,
  alertList: (limit: number) => ['alerts', limit] as const,
  maintenance: ['maintenance-windows'] as const,
  runs: (name: string) => ['schedulers', 'runs', name] as const,
  upcoming: (selector: string) => ['upcoming', selector] as const,
  serviceTokens: ['service-tokens'] as const,
};

/** The Alerts page's list; the header badge asks for counts only (limit 0), less often. */
export const ALERTS_PAGE_LIMIT = 500;
const ALERTS_POLL_MS = 5_000;
const BADGE_POLL_MS = 10_000;

export function alertsQuery(limit: number) {
  return queryOptions({
    queryKey: queryKeys.alertList(limit),
    queryFn: ({ signal }) => fetchAlerts(limit, signal),
    refetchInterval: limit === 0 ? BADGE_POLL_MS : ALERTS_POLL_MS,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    staleTime: 1_000,
  });
}

/** The maintenance windows (the Alerts page): polled as the alerts are. */
export function maintenanceQuery() {
  return queryOptions({
    queryKey: queryKeys.maintenance,
    queryFn: ({ signal }) => fetchMaintenanceWindows(signal),
    refetchInterval: ALERTS_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 1_000,
  });
}

/** Who the dashboard thinks you are: decides which actions are offered (the server decides what is allowed). */
export function sessionQuery() {
  return queryOptions({
    queryKey: queryKeys.session,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: 60_000,
    refetchOnWindowFocus: true,
  });
}

/** The operator audit trail, all schedulers or one; newest first. */
export function auditQuery(scheduler: string | null) {
  return queryOptions({
    queryKey: queryKeys.audit(scheduler),
    queryFn: ({ signal }) => fetchAudit(scheduler, signal),
    refetchInterval: 10_000,
    refetchOnWindowFocus: true,
  });
}

export function schedulerListQuery(params: SchedulerListParams) {
  return queryOptions({
    queryKey: queryKeys.list(params),
    queryFn: ({ signal }) => fetchSchedulerList(params, signal),
    refetchInterval: (query) => pollEvery(query.state.data),
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    staleTime: 1_000,
    structuralSharing: false,
  });
}

/** The statuses of exactly these schedulers (a page ranked by worst in window), polled like the list. */
export function schedulerRowsQuery(params: SchedulerListParams, names: readonly string[]) {
  return queryOptions({
    queryKey: queryKeys.listOf(names),
    queryFn: ({ signal }) => fetchSchedulerList(params, signal, names),
    refetchInterval: (query) => pollEvery(query.state.data),
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    staleTime: 1_000,
    enabled: names.length > 0,
    structuralSharing: false,
  });
}

/** Strips change at most once per evaluator round (5 s): polled every 10 s. */
const STRIPS_POLL_MS = 10_000;

/** The strips of `names` (a page), or with null a page ranked by worst health in the window. */
export function stripsQuery(params: SchedulerListParams, names: readonly string[] | null) {
  return queryOptions({
    queryKey: queryKeys.strips(params, names),
    queryFn: ({ signal }) => fetchStrips(params, names, signal),
    refetchInterval: STRIPS_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
    enabled: names === null || names.length > 0,
  });
}

export function schedulerDetailQuery(name: string, at: string | null) {
  return queryOptions({
    queryKey: queryKeys.detail(name, at),
    queryFn: ({ signal }) => fetchSchedulerDetail(name, at, signal),
    refetchInterval: (query) => (at ? false : pollEvery(query.state.data)),
    refetchOnWindowFocus: !at,
    refetchOnReconnect: !at,
    staleTime: at ? Infinity : 1_000,
  });
}

/**
 * The window ends at `at`, or (live) at the server's own "now"; the server starts it an hour
 * earlier, or at the oldest instant it keeps (so a window reaching past the horizon still shows
 * what is kept, and one wholly past it answers "no longer kept").
 */
function historyWindow(at: string | null): { to: string } | null {
  return at ? { to: at } : null;
}

export function schedulerHistoryQuery(name: string, at: string | null) {
  return queryOptions({
    queryKey: queryKeys.history(name, at),
    queryFn: ({ signal }) => fetchHistoryAnswer(name, historyWindow(at), signal),
    refetchInterval: at ? false : HISTORY_POLL_INTERVAL_MS,
    refetchOnWindowFocus: !at,
    refetchOnReconnect: !at,
    staleTime: at ? Infinity : 5_000,
  });
}

/** 404 outside demo mode: no retry, and the panel stays absent. */
export function demoProcessesQuery() {
  return queryOptions({
    queryKey: queryKeys.demo,
    queryFn: ({ signal }) => fetchDemoProcesses(signal),
    refetchInterval: (query) => (query.state.status === 'error' ? false : 1_000),
    retry: false,
    refetchOnWindowFocus: (query) => query.state.status !== 'error',
  });
}

/**
 * The same query, served by the server render: the key and options are the
 * browser's, only the transport differs (a direct read instead of HTTP), and
 * the answer is marked as server-observed for the observation clock.
 */
export function servedBy<TBody, TOptions extends { queryKey: readonly unknown[] }>(
  options: TOptions,
  read: () => Promise<TBody>,
): TOptions & { queryFn: () => Promise<Observed<TBody>> } {
  return { ...options, queryFn: async () => ({ body: await read(), via: 'server' as const }) };
}

/** A reliability report (every scheduler a selector picks); the rollup behind it changes once a round at most. */
export function reliabilityQuery(window: string, selector: string) {
  return queryOptions({
    queryKey: queryKeys.reliability(window, selector),
    queryFn: ({ signal }) => fetchGroupReliability(window, selector, signal),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}

/** A scheduler's next occurrence and last runs: a run lasts seconds to minutes, so polled as the history is. */
export function schedulerRunsQuery(name: string) {
  return queryOptions({
    queryKey: queryKeys.runs(name),
    queryFn: ({ signal }) => fetchSchedulerRuns(name, signal),
    refetchInterval: HISTORY_POLL_INTERVAL_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}

/** The fleet's next hour: the hour moves on and slots come due, so polled as the history is. */
export function upcomingQuery(selector: string) {
  return queryOptions({
    queryKey: queryKeys.upcoming(selector),
    queryFn: ({ signal }) => fetchUpcoming(selector, signal),
    refetchInterval: HISTORY_POLL_INTERVAL_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}

/** The service tokens, for an admin: their last use moves to the minute, so polled every 30 s. */
export function serviceTokensQuery() {
  return queryOptions({
    queryKey: queryKeys.serviceTokens,
    queryFn: ({ signal }) => fetchServiceTokens(signal),
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
    retry: false,
  });
}

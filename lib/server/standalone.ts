/**
 * The status service outside the dashboard: for a short-lived process (the
 * `leaseboard status` check) that asks what the API would answer, once.
 *
 * Guarantees: the same service, projection and answers as the API (the list
 * is `GET /api/v1/schedulers`' body, the detail `GET /api/v1/schedulers/{name}`'s
 * body or its error, ./http/answers.ts); reads go through one read-only pool
 * (read-only transactions, acting as LEASEBOARD_READER_ROLE when set, on
 * LEASEBOARD_READER_DATABASE_URL when set) of at most two connections, whose
 * connect timeout and statement timeout are the read timeout, so every answer
 * comes back within it (./store/observer.ts) whatever the network does: an
 * unreachable store is the list's `observation.ok=false`, or the detail's 503.
 * Non-guarantees: nothing is shared with a dashboard's process; `close` ends
 * the pool (a connection attempt still under way ends at its connect timeout).
 */
import type { SchedulerDetailResponse, SchedulerListResponse } from '../api/types';
import type { Selector } from '../limits/selector';
import type { ServerEnv } from './env';
import { detailAnswer } from './http/answers';
import type { HttpResult } from './http/result';
import { readerPool } from './reader-pool';
import { StatusService } from './service';

export type { ServerEnv } from './env';
export interface StatusReader {
  /** The list's first page (worst first) with the counts by health over every scheduler, and over those `selector` matches (absent: all). */
  list(selector?: Selector): Promise<SchedulerListResponse>;
  /** One scheduler now; a bad name is a 400, an unknown one a 404, an unreadable store a 503. */
  detail(name: string): Promise<HttpResult<SchedulerDetailResponse>>;
  /** Why the last read failed (a code or class, never a host or a secret), or null. */
  lastError(): string | null;
  close(): Promise<void>;
}

export function openStatusReader(env: ServerEnv, options: { applicationName: string }): StatusReader {
  const pool = readerPool(env, options.applicationName, 2);
  const service = new StatusService({
    db: pool,
    readTimeoutMs: env.readTimeoutMs,
    pollIntervalMs: env.pollIntervalMs,
    maxStandbyLagMs: env.maxStandbyLagMs,
    alertmanagerUrl: env.alertmanagerUrl,
    retention: env.retention,
    // One read and an answer: the failure is told in that answer, not logged beside it.
    log: () => {},
  });
  return {
    list: (selector) => service.list(selector === undefined ? {} : { selector }, { fresh: true }),
    detail: (name) => detailAnswer(service, name),
    lastError: () => service.observer.snapshot().lastError,
    close: () => pool.end(),
  };
}

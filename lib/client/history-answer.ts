/**
 * What the history section shows: the history, or the server's answer that
 * the window is older than what is kept (410 `outside_retention`). A refusal
 * is an answer, not an error: it is server-rendered like the history itself
 * and is never retried, and the page says "no longer kept (retention N days)"
 * instead of a blank chart or "unknown".
 */
import type { RetentionRefusal, SchedulerHistoryResponse } from '@/lib/api/types';

export type HistoryAnswer = { kind: 'history'; history: SchedulerHistoryResponse } | { kind: 'outside_retention'; retention: RetentionRefusal };

/** "no longer kept (retention 7 days)": the retention as the server described it. */
export function noLongerKept(retention: RetentionRefusal): string {
  return `no longer kept (retention ${retention.keptFor})`;
}

/** The refusal an error carries, when it is a 410 `outside_retention` with its retention; else null. */
export function retentionRefusalOf(error: { code: string; retention?: RetentionRefusal | null } | null | undefined): RetentionRefusal | null {
  return error?.code === 'outside_retention' && error.retention ? error.retention : null;
}

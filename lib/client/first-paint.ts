/**
 * The overview's first paint carries the first rows of a page, not all of it.
 *
 * Guarantees: the server render reads the whole page (its counts, total and
 * observation are the real answer's), but what it renders and embeds for
 * hydration holds only the first FIRST_PAINT_ROWS rows and the page's names;
 * that answer is stale from the start, so the browser asks the list API for
 * the whole page as soon as the overview mounts (the same query it polls).
 * Non-guarantees: until that answer arrives, the rows past the first ones are
 * not on screen (no first screen shows them).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SchedulerListResponse } from '@/lib/api/types';
import type { Observed } from './api';

/** Rows in the server's HTML and the hydration (a phone shows one or two, a wide screen about fifteen). */
export const FIRST_PAINT_ROWS = 20;

/** Keeps only the first rows of the prefetched list under `queryKey`, marked stale so the browser fetches the rest. */
export function keepFirstPaintRows(client: QueryClient, queryKey: readonly unknown[]): void {
  const data = client.getQueryData<Observed<SchedulerListResponse>>(queryKey);
  if (data?.via !== 'server' || data.body.schedulers.length <= FIRST_PAINT_ROWS) return;
  const firstRows: Observed<SchedulerListResponse> = {
    via: 'server',
    body: { ...data.body, schedulers: data.body.schedulers.slice(0, FIRST_PAINT_ROWS) },
    pageNames: data.body.schedulers.map((s) => s.name),
  };
  client.setQueryData(queryKey, firstRows, { updatedAt: 0 });
}

/**
 * Overview. Server-renders the first view (the same query the browser then
 * polls), so the first paint shows data, not a spinner: its first rows only,
 * and only those are embedded for hydration (lib/client/first-paint.ts).
 */
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { cache } from 'react';
import { Overview } from '@/components/overview/overview';
import { keepFirstPaintRows } from '@/lib/client/first-paint';
import { pageIcons, summarize, tabTitle } from '@/lib/client/health-display';
import { parseListParams, PAGE_SIZE, listOffset, rejectedSelector, selectorOf, summaryCounts, type SchedulerListParams } from '@/lib/client/list-params';
import { schedulerListQuery, servedBy } from '@/lib/client/queries';
import { makeQueryClient } from '@/lib/client/query-client';
import { readSchedulerList } from '@/lib/server';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** One read per request, shared by the metadata and the page. */
const readList = cache(async (key: string) => {
  const params = JSON.parse(key) as SchedulerListParams;
  const result = await readSchedulerList({
    health: params.health ? [params.health] : undefined,
    q: params.search || undefined,
    selector: selectorOf(params.selector),
    group: params.group || undefined,
    limit: PAGE_SIZE,
    offset: listOffset(params),
  });
  if (!result.ok) throw new Error(`overview: ${result.error.code}: ${result.error.message}`);
  return result.value;
});

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const params = parseListParams(await searchParams);
  try {
    const list = await readList(JSON.stringify(params));
    const summary = summarize(summaryCounts(list, params), { stale: false, storeOk: list.observation.ok });
    return { title: tabTitle(summary), icons: pageIcons(summary) };
  } catch {
    return { title: tabTitle({ kind: 'store_unreadable' }) };
  }
}

export default async function OverviewPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const params = parseListParams(raw);
  const queryClient = makeQueryClient();
  const list = schedulerListQuery(params);
  await queryClient.prefetchQuery(servedBy(list, () => readList(JSON.stringify(params))));
  // The HTML and the hydration carry the rows a first screen shows; the browser fetches the page at mount.
  keepFirstPaintRows(queryClient, list.queryKey);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <h1 className="page-title">Schedulers</h1>
      <Overview initialParams={params} rejected={rejectedSelector(raw)} />
    </HydrationBoundary>
  );
}

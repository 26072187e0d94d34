/**
 * One scheduler, live or "as of" `?at=ISO`. Server-renders the status with
 * the same query the browser then uses; an `?at=` older than what is kept (a
 * notification link from weeks ago) renders "no longer kept (retention N
 * days)" on the server, with the oldest instant kept. The last hour's history
 * is not embedded: the timeline renders after mount, below the first screen,
 * and its query starts at hydration (embedded, its 360 points were 55 kB of
 * the page's inline script, a phone's longest task of the load).
 */
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { AsOfNotKept } from '@/components/scheduler/not-kept';
import { SchedulerDetail } from '@/components/scheduler/scheduler-detail';
import { retentionRefusalOf } from '@/lib/client/history-answer';
import { pageIcons, schedulerTabTitle, summarize } from '@/lib/client/health-display';
import { schedulerDetailQuery, servedBy } from '@/lib/client/queries';
import { makeQueryClient } from '@/lib/client/query-client';
import { readSchedulerDetail } from '@/lib/server';

export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

async function routeOf(props: Props): Promise<{ name: string; at: string | null }> {
  const { name } = await props.params;
  const raw = (await props.searchParams).at;
  const at = Array.isArray(raw) ? raw[0] : raw;
  return { name: safeDecode(name), at: at || null };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const readDetail = cache((name: string, at: string | null) => readSchedulerDetail(name, at ?? undefined));

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { name, at } = await routeOf(props);
  const result = await readDetail(name, at);
  if (!result.ok) return { title: `${name} · Leaseboard` };
  const body = result.value;
  const summary = summarize({ [body.status.health]: 1 }, { stale: false, storeOk: body.observation.ok });
  return { title: schedulerTabTitle(name, summary), icons: pageIcons(summary) };
}

export default async function SchedulerPage(props: Props) {
  const { name, at } = await routeOf(props);
  const result = await readDetail(name, at);
  if (!result.ok && result.error.status === 404) notFound();
  const refusal = result.ok ? null : retentionRefusalOf(result.error);
  if (refusal !== null && at !== null) return <AsOfNotKept name={name} at={at} retention={refusal} />;
  if (!result.ok) {
    return (
      <section className="panel" data-testid="detail-error">
        <h1>{name}</h1>
        <p className="banner tone-bad" role="alert">
          {result.error.message}
        </p>
        <Link href={`/schedulers/${encodeURIComponent(name)}`}>Show the live status instead</Link>
      </section>
    );
  }
  const queryClient = makeQueryClient();
  await queryClient.prefetchQuery(servedBy(schedulerDetailQuery(name, at), async () => result.value));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <SchedulerDetail name={name} at={at} />
    </HydrationBoundary>
  );
}

/**
 * One scheduler, live or "as of" `?at=ISO`. Server-renders the status and the
 * last hour's history with the same queries the browser then uses; an `?at=`
 * older than what is kept (a notification link from weeks ago) renders "no
 * longer kept (retention N days)" on the server, with the oldest instant kept.
 */
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { AsOfNotKept } from '@/components/scheduler/not-kept';
import { SchedulerDetail } from '@/components/scheduler/scheduler-detail';
import { retentionRefusalOf, type HistoryAnswer } from '@/lib/client/history-answer';
import { pageIcons, schedulerTabTitle, summarize } from '@/lib/client/health-display';
import { historyWindow, schedulerDetailQuery, schedulerHistoryQuery, servedBy } from '@/lib/client/queries';
import { makeQueryClient } from '@/lib/client/query-client';
import { readSchedulerDetail, readSchedulerHistory } from '@/lib/server';

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

/** The history, or the answer that its window is no longer kept (rendered like the history); other failures throw. */
async function readHistory(name: string, at: string | null): Promise<HistoryAnswer> {
  const result = await readSchedulerHistory(name, undefined, historyWindow(at)?.to);
  if (result.ok) return { kind: 'history', history: result.value };
  const retention = retentionRefusalOf(result.error);
  if (retention !== null) return { kind: 'outside_retention', retention };
  throw new Error(`history: ${result.error.code}: ${result.error.message}`);
}

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
  await Promise.all([
    queryClient.prefetchQuery(servedBy(schedulerDetailQuery(name, at), async () => result.value)),
    queryClient.prefetchQuery(servedBy(schedulerHistoryQuery(name, at), () => readHistory(name, at))),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <SchedulerDetail name={name} at={at} />
    </HydrationBoundary>
  );
}

/**
 * Alerts: rules, modes, what fires, what was delivered. Server-renders the
 * first view with the same query the browser then polls.
 */
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import type { Metadata } from 'next';
import Link from 'next/link';
import { AlertsOverview } from '@/components/alerts/alerts-overview';
import { ALERTS_PAGE_LIMIT, alertsQuery, servedBy } from '@/lib/client/queries';
import { makeQueryClient } from '@/lib/client/query-client';
import { readAlertList } from '@/lib/server';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts · Leaseboard' };

export default async function AlertsPage() {
  const queryClient = makeQueryClient();
  const result = await readAlertList(ALERTS_PAGE_LIMIT);
  if (result.ok) await queryClient.prefetchQuery(servedBy(alertsQuery(ALERTS_PAGE_LIMIT), async () => result.value));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <h1 className="page-title">Alerts</h1>
      <p className="muted small">
        Rules read the status projection, never raw rows. A rule (or one scheduler) is <strong>off</strong> (not evaluated), in <strong>shadow</strong>{' '}
        (evaluated and shown, never delivered — where every rule starts) or <strong>on</strong> (delivered to Alertmanager). Only an operator changes a mode;
        every change is in the <Link href="/audit">audit trail</Link>.
      </p>
      <AlertsOverview />
    </HydrationBoundary>
  );
}

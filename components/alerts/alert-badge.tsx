'use client';
/**
 * The header badge: shown while any alert fires in mode `on` (what pages
 * someone), with the count, linking to the Alerts page. Polls the counts
 * only. Shadow alerts never raise it (they are shown on the Alerts page).
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { alertsQuery } from '@/lib/client/queries';
import { ToneIcon } from '../tone-icon';
import { useAfterMount } from '@/lib/client/mounted-later';

export function AlertBadge() {
  const query = useQuery({ ...alertsQuery(0), enabled: useAfterMount() });
  const firing = query.data?.body.counts.firing ?? 0;
  if (firing === 0) return null;
  return (
    <Link href="/alerts" className="badge tone-bad alert-badge" data-testid="alert-badge" aria-label={`${firing} alert${firing === 1 ? '' : 's'} firing`}>
      <ToneIcon tone="bad" />
      <span>{firing} firing</span>
    </Link>
  );
}

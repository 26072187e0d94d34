'use client';
/**
 * The overview's filter/search/page as component state mirrored into the URL
 * with `history.replaceState` (which Next's router integrates), so a link
 * copies the view and a reload server-renders the same page.
 */
import { useCallback, useState } from 'react';
import { pageSearchParams, type SchedulerListParams } from '@/lib/client/list-params';

export function useListParams(initial: SchedulerListParams): [SchedulerListParams, (next: SchedulerListParams) => void] {
  const [params, setParams] = useState(initial);
  const update = useCallback((next: SchedulerListParams) => {
    setParams(next);
    const query = pageSearchParams(next);
    window.history.replaceState(window.history.state, '', query ? `?${query}` : window.location.pathname);
  }, []);
  return [params, update];
}

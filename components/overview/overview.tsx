'use client';
/**
 * The overview: counts and filter by health, search by name, one row per
 * scheduler (server-paged, worst first), the page's own observation status,
 * and the demo panel when the demo supervisor answers.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { summarize, tabTitle } from '@/lib/client/health-display';
import type { SchedulerListParams } from '@/lib/client/list-params';
import { STALE_AFTER_POLL_INTERVALS, useIsStale, useObservedStamp } from '@/lib/client/observation-clock';
import { FALLBACK_POLL_INTERVAL_MS, schedulerListQuery } from '@/lib/client/queries';
import type { Observer } from '@/lib/client/status-view';
import type { Health } from '@/lib/status';
import { DemoPanel } from '../demo/demo-panel';
import { DocumentHealth } from '../document-health';
import { standbyBehindText } from '@/lib/client/durability-view';
import { DurabilityLine } from '../durability-line';
import { ObservationBanner } from '../observation-banner';
import { ObservationProvider } from '../observation-context';
import { HealthFilter } from './health-filter';
import { Pagination } from './pagination';
import { SchedulerTable } from './scheduler-table';
import { SearchBox } from './search-box';
import { useListParams } from './use-list-params';

export function Overview({ initialParams }: { initialParams: SchedulerListParams }) {
  const [params, setParams] = useListParams(initialParams);
  const query = useQuery({ ...schedulerListQuery(params), placeholderData: keepPreviousData });
  const body = query.data?.body;
  const stamp = useObservedStamp(query.data);
  const stale = useIsStale(stamp, STALE_AFTER_POLL_INTERVALS * (body?.pollIntervalMs ?? FALLBACK_POLL_INTERVAL_MS), true);
  const storeOk = body?.observation.ok ?? false;
  const observedAt = body?.observedAt ?? '';
  const observer = useMemo<Observer>(() => ({ observedAt, stale, storeOk }), [observedAt, stale, storeOk]);
  const observation = useMemo(() => ({ stamp, live: true, stale, storeOk }), [stamp, stale, storeOk]);
  const onSearch = useCallback((search: string) => setParams({ ...params, search, page: 1 }), [params, setParams]);
  const onHealth = (health: Health | null) => setParams({ ...params, health, page: 1 });

  if (!body) {
    return (
      <p className="banner tone-unknown" role="alert" data-testid="not-observed-banner">
        The status service has not answered yet{query.error ? ` (${query.error.message})` : ''}. Every state is unknown.
      </p>
    );
  }
  const summary = summarize(body.counts, observer);
  const filtered = params.health !== null || params.search !== '';

  return (
    <ObservationProvider value={observation}>
      <DocumentHealth title={tabTitle(summary)} summary={summary} />
      <ObservationBanner
        observedAt={body.observedAt}
        storeOk={storeOk}
        lastObservedAt={body.observation.lastObservedAt}
        standbyBehind={standbyBehindText(body.durability, storeOk)}
      />
      <DurabilityLine durability={body.durability} stale={stale} />
      <div className="toolbar">
        <HealthFilter counts={body.counts} selected={params.health} stale={stale} onSelect={onHealth} />
        <SearchBox value={params.search} onSearch={onSearch} />
      </div>
      {body.schedulers.length === 0 ? (
        <p className="empty" data-testid="empty-state">
          {filtered ? 'No scheduler matches this filter.' : 'No scheduler has registered yet.'}
        </p>
      ) : (
        <SchedulerTable statuses={body.schedulers} observer={observer} caption="Schedulers, worst health first" />
      )}
      <Pagination page={params.page} total={body.total} shown={body.schedulers.length} onPage={(page) => setParams({ ...params, page })} />
      <DemoPanel lease={null} />
    </ObservationProvider>
  );
}

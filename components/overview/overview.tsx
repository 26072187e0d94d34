'use client';
/**
 * The overview: counts and filter by health, search by name, select and
 * group by labels (a team's view, kept in the URL), one row per
 * scheduler (server-paged, worst first) with its health strip over the chosen
 * window, the page's own observation status, and the demo panel when the
 * demo supervisor answers. Ordered by worst in window, the strips read ranks
 * and pages (its counts drive the filter) and the list answers those rows.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { summarize, tabTitle } from '@/lib/client/health-display';
import { byLabels, summaryCounts, type SchedulerListParams } from '@/lib/client/list-params';
import { STALE_AFTER_POLL_INTERVALS, useIsStale, useObservedStamp } from '@/lib/client/observation-clock';
import { FALLBACK_POLL_INTERVAL_MS, maintenanceQuery, schedulerListQuery, schedulerRowsQuery, stripsQuery } from '@/lib/client/queries';
import { openMaintenance } from '@/lib/client/maintenance-marks';
import { axisOf } from '@/lib/client/strip-view';
import type { Observer } from '@/lib/client/status-view';
import type { Health, SchedulerStatus } from '@/lib/status';
import { DemoPanel } from '../demo/demo-panel';
import { DocumentHealth } from '../document-health';
import { standbyBehindText } from '@/lib/client/durability-view';
import { DurabilityLine } from '../durability-line';
import { ObservationBanner } from '../observation-banner';
import { ObservationProvider } from '../observation-context';
import { HealthFilter } from './health-filter';
import { LabelFilter, type LabelFilterProps } from './label-filter';
import { Pagination } from './pagination';
import { SchedulerTable } from './scheduler-table';
import { SearchBox } from './search-box';
import { StripControls, StripLegend } from './strip-controls';
import { useListParams } from './use-list-params';

export function Overview({ initialParams, rejected }: { initialParams: SchedulerListParams; rejected: LabelFilterProps['rejected'] }) {
  const [params, setParams] = useListParams(initialParams);
  // The ranked strips cannot read labels: a team's view or a grouped one keeps the list's order.
  const worstOrder = params.order === 'worst' && !byLabels(params);
  const query = useQuery({ ...schedulerListQuery(params), placeholderData: keepPreviousData });
  const body = query.data?.body;
  const ranked = useQuery({ ...stripsQuery(params, null), placeholderData: keepPreviousData, enabled: worstOrder });
  const rankedBody = worstOrder ? ranked.data?.body : undefined;
  const rankedNames = useMemo(() => rankedBody?.rows.map((r) => r.name) ?? [], [rankedBody]);
  const rows = useQuery({ ...schedulerRowsQuery(params, rankedNames), placeholderData: keepPreviousData, enabled: worstOrder && rankedNames.length > 0 });
  const rowsBody = worstOrder && rankedNames.length > 0 ? rows.data?.body : undefined;
  const statuses = useMemo<readonly SchedulerStatus[]>(() => {
    if (!worstOrder) return body?.schedulers ?? [];
    const byName = new Map(rowsBody?.schedulers.map((s) => [s.name, s]) ?? []);
    return rankedNames.flatMap((name) => byName.get(name) ?? []);
  }, [worstOrder, body, rowsBody, rankedNames]);
  // While the page holds only the server's first rows, its strips are asked for the whole page already.
  const firstPaintNames = query.data?.via === 'server' ? query.data.pageNames : undefined;
  const pageNames = useMemo(() => (worstOrder ? [] : (firstPaintNames ?? statuses.map((s) => s.name))), [worstOrder, firstPaintNames, statuses]);
  const pageStrips = useQuery({ ...stripsQuery(params, pageNames), placeholderData: keepPreviousData, enabled: !worstOrder && pageNames.length > 0 });
  const stripsBody = worstOrder ? rankedBody : pageStrips.data?.body;
  const strips = useMemo(() => new Map(stripsBody?.rows.map((r) => [r.name, r]) ?? []), [stripsBody]);
  const axis = useMemo(() => (stripsBody ? axisOf(stripsBody) : null), [stripsBody]);
  const stamp = useObservedStamp(query.data);
  const stale = useIsStale(stamp, STALE_AFTER_POLL_INTERVALS * (body?.pollIntervalMs ?? FALLBACK_POLL_INTERVAL_MS), true);
  const storeOk = body?.observation.ok ?? false;
  const observedAt = body?.observedAt ?? '';
  const observer = useMemo<Observer>(() => ({ observedAt, stale, storeOk }), [observedAt, stale, storeOk]);
  // Marks beside the rows' health: the windows open at the list's instant (a refused or failed read marks nothing).
  const windows = useQuery({ ...maintenanceQuery(), retry: false });
  const windowsBody = windows.data?.body;
  const maintenance = useMemo(() => openMaintenance(windowsBody, Date.parse(observedAt)), [windowsBody, observedAt]);
  const observation = useMemo(() => ({ stamp, live: true, stale, storeOk }), [stamp, stale, storeOk]);
  const onSearch = useCallback((search: string) => setParams({ ...params, search, page: 1 }), [params, setParams]);
  const onHealth = (health: Health | null) => setParams({ ...params, health, page: 1 });
  const onWindow = (window: SchedulerListParams['window']) => setParams({ ...params, window, page: 1 });
  const onOrder = (order: SchedulerListParams['order']) => setParams({ ...params, order, page: 1 });
  const onLabels = (selector: string, group: string) => setParams({ ...params, selector, group, page: 1 });

  if (!body) {
    return (
      <p className="banner tone-unknown" role="alert" data-testid="not-observed-banner">
        The status service has not answered yet{query.error ? ` (${query.error.message})` : ''}. Every state is unknown.
      </p>
    );
  }
  const summary = summarize(summaryCounts(body, params), observer);
  const filtered = params.health !== null || params.search !== '' || params.selector !== '';
  const counts = worstOrder ? (rankedBody?.counts ?? {}) : summaryCounts(body, params);
  const total = worstOrder ? (rankedBody?.total ?? 0) : body.total;

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
        <HealthFilter counts={counts} selected={params.health} stale={stale} onSelect={onHealth} />
        <SearchBox value={params.search} onSearch={onSearch} />
        <StripControls window={params.window} order={worstOrder ? 'worst' : 'now'} worstOffered={!byLabels(params)} onWindow={onWindow} onOrder={onOrder} />
      </div>
      <LabelFilter selector={params.selector} group={params.group} rejected={rejected} onApply={onLabels} />
      <StripLegend />
      {statuses.length === 0 ? (
        <p className="empty" data-testid="empty-state">
          {filtered ? 'No scheduler matches this filter.' : 'No scheduler has registered yet.'}
        </p>
      ) : (
        <SchedulerTable
          statuses={statuses}
          observer={observer}
          stamp={stamp}
          caption={worstOrder ? 'Schedulers, worst health in the window first' : 'Schedulers, worst health first'}
          strips={strips}
          axis={axis}
          window={params.window}
          groupKey={worstOrder ? '' : params.group}
          groups={worstOrder ? null : (body.groups ?? null)}
          maintenance={maintenance}
        />
      )}
      <Pagination
        page={params.page}
        total={total}
        shown={worstOrder ? statuses.length : (firstPaintNames ?? statuses).length}
        onPage={(page) => setParams({ ...params, page })}
      />
      <DemoPanel lease={null} />
    </ObservationProvider>
  );
}

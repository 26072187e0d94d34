/**
 * All schedulers of one page, worst first (the server sorts), one line each
 * on a desktop: name, labels, health, history, then the column groups
 * "Authority" and "Progress", which keep the two axes visibly apart, so
 * "lease healthy, work stalled" reads at one glance. Every column header
 * sorts the page's rows (lib/client/fleet-order.ts; `aria-sort` says how);
 * a list grouped by a label shows each group under a heading with its
 * health summary; ↓/j ↑/k move between rows, Enter opens one (./use-row-keys.ts).
 *
 * The server's HTML and the hydration hold the first FIRST_PAINT_ROWS rows
 * only (more than any first screen shows; the overview's first answer holds
 * no more, lib/client/first-paint.ts); the rest of the page mounts right
 * after, twenty rows per step, each step a transition in a task of its own
 * (its render sliced, its commit small). A phone's load then parses,
 * hydrates and lays out a fifth of the rows. No Suspense boundary around
 * rows: a boundary left to hydrate later is hydrated synchronously, in one
 * long task, by the first query update whose props reach it.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import type { GroupSummary, StripRow } from '@/lib/api/types';
import { arrangeRows, LIST_ORDER, nextSort, type SortColumn } from '@/lib/client/fleet-order';
import type { LocalStamp } from '@/lib/client/local-clock';
import type { Observer } from '@/lib/client/status-view';
import type { StripAxis } from '@/lib/client/strip-view';
import { FIRST_PAINT_ROWS } from '@/lib/client/first-paint';
import { useRenderedCount } from '@/lib/client/mounted-later';
import { useTimeMode, useTimeZone } from '@/lib/client/time-zone';
import type { SchedulerStatus, StripWindow } from '@/lib/status';
import { GroupSummaryLine } from './group-summary';
import { SchedulerRow } from './scheduler-row';
import { maintenanceMark } from '@/lib/client/maintenance-marks';
import type { OpenWindow } from '@/lib/limits/maintenance';
import { NO_LABELS } from '@/lib/status/types';
import { SortHeader } from './sort-header';
import { StripAxisHeader } from './strip-controls';
import { onRowKeys } from './use-row-keys';

export interface SchedulerTableProps {
  statuses: readonly SchedulerStatus[];
  observer: Observer;
  /** When `statuses` were observed, on the local clock. */
  stamp: LocalStamp | null;
  caption: string;
  /** Each row's strip by name (absent while loading) on the shared `axis`. */
  strips: ReadonlyMap<string, StripRow>;
  axis: StripAxis | null;
  window: StripWindow;
  /** The label key the list is grouped by ('' none), and the server's summary of every group of the selection. */
  groupKey: string;
  groups: readonly GroupSummary[] | null;
  /** The maintenance windows open at the rows' observation (lib/client/maintenance-marks.ts). */
  maintenance: readonly OpenWindow[];
}

/** Every column: the heading row spans two rows for these, the axes' groups hold the rest. */
const COLUMN_COUNT = 12;

/** Rows mounted per step after the first paint's (lib/client/mounted-later.ts `useRenderedCount`). */
const MOUNT_STEP_ROWS = 20;

export function SchedulerTable({
  statuses: latest,
  observer: current,
  stamp: latestStamp,
  caption,
  strips: latestStrips,
  axis: latestAxis,
  window,
  groupKey,
  groups,
  maintenance,
}: SchedulerTableProps) {
  const [sort, setSort] = useState(LIST_ORDER);
  const onSort = (column: SortColumn) => setSort((current) => nextSort(current, column));
  const mode = useTimeMode();
  const timeZone = useTimeZone();
  // A poll's new page re-renders the rows whose facts changed, and a new strips answer every
  // row's strip: deferred, React renders them in small slices a phone's main thread can
  // interleave with input, instead of one long task. Values that belong together defer together.
  const { statuses, observer, stamp } = useDeferredValue(
    useMemo(() => ({ statuses: latest, observer: current, stamp: latestStamp }), [latest, current, latestStamp]),
  );
  const { strips, axis } = useDeferredValue(useMemo(() => ({ strips: latestStrips, axis: latestAxis }), [latestStrips, latestAxis]));
  const stale = observer.stale;
  const rendered = useRenderedCount(statuses.length, FIRST_PAINT_ROWS, MOUNT_STEP_ROWS);
  const sections = useMemo(
    () => arrangeRows(statuses, { groupKey, groups, sort, strips, limit: rendered }),
    [statuses, groupKey, groups, sort, strips, rendered],
  );
  const sortedBy = sort === LIST_ORDER ? caption : `${caption}; sorted by ${sort.column}, ${sort.direction}`;
  return (
    <table className={`scheduler-table ${stale ? 'is-stale' : ''}`} data-testid="scheduler-table" onKeyDown={onRowKeys}>
      <caption className="visually-hidden">{groupKey === '' ? sortedBy : `${sortedBy}; grouped by ${groupKey}`}</caption>
      <colgroup>
        <col className="col-name" />
        <col className="col-labels" />
        <col className="col-health" />
        <col className="col-history" />
      </colgroup>
      <colgroup className="group-authority">
        <col className="col-lease" />
        <col className="col-leader" />
        <col className="col-epoch" />
        <col className="col-renewed" />
      </colgroup>
      <colgroup className="group-progress">
        <col className="col-work" />
        <col className="col-progress" />
        <col className="col-occurrence" />
        <col className="col-observation" />
      </colgroup>
      <thead>
        <tr className="group-row">
          <SortHeader column="name" sort={sort} onSort={onSort} rowSpan={2}>
            Scheduler
          </SortHeader>
          <SortHeader column="labels" sort={sort} onSort={onSort} rowSpan={2}>
            Labels
          </SortHeader>
          <SortHeader column="health" sort={sort} onSort={onSort} rowSpan={2}>
            Health
          </SortHeader>
          <SortHeader column="history" sort={sort} onSort={onSort} rowSpan={2} className="cell-history-head">
            <StripAxisHeader window={window} axis={axis} />
          </SortHeader>
          <th scope="colgroup" colSpan={4} className="group-authority" data-testid="group-authority">
            Authority
          </th>
          <th scope="colgroup" colSpan={4} className="group-progress" data-testid="group-progress">
            Progress
          </th>
        </tr>
        <tr>
          <SortHeader column="lease" sort={sort} onSort={onSort} className="group-start">
            Lease
          </SortHeader>
          <SortHeader column="leader" sort={sort} onSort={onSort}>
            Leader
          </SortHeader>
          <SortHeader column="epoch" sort={sort} onSort={onSort}>
            Epoch
          </SortHeader>
          <SortHeader column="renewal" sort={sort} onSort={onSort}>
            Renewal
          </SortHeader>
          <SortHeader column="work" sort={sort} onSort={onSort} className="group-start">
            Work
          </SortHeader>
          <SortHeader column="progress" sort={sort} onSort={onSort}>
            Last progress
          </SortHeader>
          <SortHeader column="occurrence" sort={sort} onSort={onSort}>
            Occurrence · cursor
          </SortHeader>
          <SortHeader column="observation" sort={sort} onSort={onSort}>
            Observation
          </SortHeader>
        </tr>
      </thead>
      {sections.map((section) => (
        <tbody key={section.value ?? ''} data-testid={section.summary === null ? undefined : 'row-group'} data-group={section.value ?? undefined}>
          {section.summary === null ? null : (
            <tr className="group-head">
              <th scope="rowgroup" colSpan={COLUMN_COUNT}>
                <GroupSummaryLine labelKey={groupKey} summary={section.summary} stale={stale} />
              </th>
            </tr>
          )}
          {section.rows.map((status) => (
            <SchedulerRow
              key={status.name}
              status={status}
              observer={observer}
              stamp={stamp}
              strip={strips.get(status.name)}
              axis={axis}
              window={window}
              mode={mode}
              timeZone={timeZone}
              maintenance={maintenanceMark(maintenance, status.name, status.labels ?? NO_LABELS)}
            />
          ))}
        </tbody>
      ))}
    </table>
  );
}

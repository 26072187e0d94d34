/**
 * All schedulers of one page, worst first (the server sorts). Column groups
 * "Authority" and "Progress" keep the two axes visibly apart, so "lease
 * healthy, work stalled" reads at one glance.
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
import { useDeferredValue, useMemo } from 'react';
import type { StripRow } from '@/lib/api/types';
import type { LocalStamp } from '@/lib/client/local-clock';
import type { Observer } from '@/lib/client/status-view';
import type { StripAxis } from '@/lib/client/strip-view';
import { FIRST_PAINT_ROWS } from '@/lib/client/first-paint';
import { useRenderedCount } from '@/lib/client/mounted-later';
import { useTimeMode, useTimeZone } from '@/lib/client/time-zone';
import type { SchedulerStatus, StripWindow } from '@/lib/status';
import { SchedulerRow } from './scheduler-row';
import { StripAxisHeader } from './strip-controls';

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
}

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
}: SchedulerTableProps) {
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
  const shown = statuses.slice(0, useRenderedCount(statuses.length, FIRST_PAINT_ROWS, MOUNT_STEP_ROWS));
  return (
    <table className={`scheduler-table ${stale ? 'is-stale' : ''}`} data-testid="scheduler-table">
      <caption className="visually-hidden">{caption}</caption>
      <colgroup>
        <col className="col-name" />
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
          <th scope="col" rowSpan={2}>
            Scheduler
          </th>
          <th scope="col" rowSpan={2}>
            Health
          </th>
          <th scope="col" rowSpan={2} className="cell-history-head">
            <StripAxisHeader window={window} axis={axis} />
          </th>
          <th scope="colgroup" colSpan={4} className="group-authority" data-testid="group-authority">
            Authority
          </th>
          <th scope="colgroup" colSpan={4} className="group-progress" data-testid="group-progress">
            Progress
          </th>
        </tr>
        <tr>
          <th scope="col" className="group-start">
            Lease
          </th>
          <th scope="col">Leader</th>
          <th scope="col">Epoch</th>
          <th scope="col">Renewal</th>
          <th scope="col" className="group-start">
            Work
          </th>
          <th scope="col">Last progress</th>
          <th scope="col">Occurrence · cursor</th>
          <th scope="col">Observation</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((status) => (
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
          />
        ))}
      </tbody>
    </table>
  );
}

/**
 * All schedulers of one page, worst first (the server sorts). Column groups
 * "Authority" and "Progress" keep the two axes visibly apart, so "lease
 * healthy, work stalled" reads at one glance.
 */
import type { Observer } from '@/lib/client/status-view';
import type { SchedulerStatus } from '@/lib/status';
import { SchedulerRow } from './scheduler-row';

export interface SchedulerTableProps {
  statuses: readonly SchedulerStatus[];
  observer: Observer;
  caption: string;
}

export function SchedulerTable({ statuses, observer, caption }: SchedulerTableProps) {
  const stale = observer.stale;
  return (
    <table className={`scheduler-table ${stale ? 'is-stale' : ''}`} data-testid="scheduler-table">
      <caption className="visually-hidden">{caption}</caption>
      <colgroup>
        <col className="col-name" />
        <col className="col-health" />
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
        {statuses.map((status) => (
          <SchedulerRow key={status.name} status={status} observer={observer} />
        ))}
      </tbody>
    </table>
  );
}

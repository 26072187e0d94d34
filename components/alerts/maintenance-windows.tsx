'use client';
/**
 * The Alerts page's maintenance windows: which are open or to come (and
 * whom they cover), and the closed ones still kept. While a window is open
 * its schedulers' alerts are evaluated and shown above, never delivered.
 */
import { useQuery } from '@tanstack/react-query';
import type { MaintenanceWindowView } from '@/lib/api/types';
import { maintenanceQuery } from '@/lib/client/queries';
import { Instant } from '../instant';
import { ScrollTable } from '../scroll-table';

const STATE_TEXT: Record<MaintenanceWindowView['state'], string> = {
  open: 'open',
  scheduled: 'scheduled',
  ended: 'ended',
  cancelled: 'cancelled',
};

function When({ w }: { w: MaintenanceWindowView }) {
  if (w.state === 'open' && w.openUntil !== null) {
    return (
      <>
        until <Instant iso={w.openUntil} />
      </>
    );
  }
  if (w.state === 'scheduled' && w.nextOpensAt !== null) {
    return (
      <>
        opens <Instant iso={w.nextOpensAt} />
      </>
    );
  }
  return (
    <>
      <Instant iso={w.startsAt} /> – <Instant iso={w.endsAt} />
    </>
  );
}

export function MaintenanceWindows() {
  const query = useQuery(maintenanceQuery());
  if (query.error) return <p className="muted">The maintenance windows could not be read ({query.error.message}).</p>;
  const windows = query.data?.body.windows;
  if (!windows) return <p className="muted">Reading the maintenance windows…</p>;
  if (windows.length === 0)
    return (
      <p className="muted" data-testid="maintenance-empty">
        No maintenance window is open or scheduled.
      </p>
    );
  return (
    <ScrollTable
      labelledBy="maintenance-heading"
      testId="maintenance-windows"
      columns={[{ label: 'Window' }, { label: 'Covers' }, { label: 'State' }, { label: 'When (UTC)' }, { label: 'Who, why' }]}
    >
      {windows.map((w) => (
        <tr key={w.id} data-testid="maintenance-window" data-window={w.id} data-state={w.state}>
          <th scope="row">#{w.id}</th>
          <td className="wrap">{w.selector ?? (w.schedulers ?? []).join(', ')}</td>
          <td>
            {STATE_TEXT[w.state]}
            {w.weekly ? ', weekly' : ''}
          </td>
          <td className="num">
            <When w={w} />
          </td>
          <td className="wrap small">
            {w.by}: {w.reason}
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

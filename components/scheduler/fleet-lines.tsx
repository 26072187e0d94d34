/**
 * What a scheduler's page says of its fleet context, beside its health and
 * never instead of it: the open maintenance window covering it (its alerts
 * are not delivered until the window closes) and who owns it.
 */
import type { SchedulerDetailResponse } from '@/lib/api/types';
import { Instant } from '../instant';

export function MaintenanceLine({ mark }: { mark: SchedulerDetailResponse['maintenance'] }) {
  if (mark === null) return null;
  return (
    <p className="banner tone-muted" data-testid="maintenance-line">
      <strong>In maintenance</strong> — window #{mark.window} by {mark.by}: {mark.reason}. Its alerts are not delivered until <Instant iso={mark.until} />; its
      health above is as ever.
    </p>
  );
}

export function OwnerLine({ owner }: { owner: SchedulerDetailResponse['owner'] }) {
  if (owner === null) return null;
  return (
    <p className="small" data-testid="owner-line">
      Team <strong>{owner.team}</strong>
      {owner.contact !== null ? <> · contact {owner.contact}</> : null}
      {owner.runbookUrl !== null ? (
        <>
          {' '}
          ·{' '}
          <a href={owner.runbookUrl} rel="noreferrer noopener" target="_blank">
            team runbook
          </a>
        </>
      ) : null}
    </p>
  );
}

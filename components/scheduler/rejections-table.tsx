/** Fenced writes the resource refused because their epoch was no longer current (a paused holder waking up). */
import { memo } from 'react';
import type { StaleWriteRejection } from '@/lib/api/types';
import { ScrollTable } from '../scroll-table';
import { Instant } from '@/components/instant';
import { Epoch } from '@/components/epoch';

const REASON: Record<StaleWriteRejection['reason'], string> = {
  stale_epoch: 'a newer epoch holds the lease',
  expired: 'the lease had expired',
  released: 'the lease was released',
  no_lease: 'no lease exists',
};

export const RejectionsTable = memo(function RejectionsTable({ rejections }: { rejections: readonly StaleWriteRejection[] }) {
  return (
    <section className="panel" aria-labelledby="rejections-heading">
      <h2 id="rejections-heading">Stale-write rejections</h2>
      {rejections.length === 0 ? (
        <p className="muted" data-testid="no-rejections">
          No stale write was rejected recently.
        </p>
      ) : (
        <ScrollTable
          labelledBy="rejections-heading"
          testId="rejections-table"
          columns={[{ label: 'At' }, { label: 'Epoch tried' }, { label: 'Current epoch' }, { label: 'Resource' }, { label: 'Why refused' }]}
        >
          {rejections.map((rejection, index) => (
            <tr key={`${rejection.at}-${index}`} data-testid="rejection-row" data-attempted-epoch={rejection.attemptedEpoch}>
              <td className="num">
                <Instant iso={rejection.at} />
              </td>
              <td className="num">
                <Epoch value={rejection.attemptedEpoch} />
              </td>
              <td className="num">
                <Epoch value={rejection.currentEpoch} />
              </td>
              <td>
                <code>{rejection.resource}</code>
              </td>
              <td>{REASON[rejection.reason]}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
});

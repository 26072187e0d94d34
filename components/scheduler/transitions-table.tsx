/** Epochs, newest first: who held the lease, from when to when, and how each tenure began and ended. */
import type { Tenure } from '@/lib/api/types';
import { formatDuration } from '@/lib/status';
import { ScrollTable } from '../scroll-table';
import { Instant } from '@/components/instant';
import { Epoch } from '@/components/epoch';

const BEGAN: Record<Tenure['began'], string> = { acquired: 'acquired', taken_over: 'took over' };
const ENDED: Record<NonNullable<Tenure['ended']>, string> = { released: 'released', expired: 'expired' };

function tenureMs(tenure: Tenure, observedAt: string): number {
  return Math.max(0, Date.parse(tenure.to ?? observedAt) - Date.parse(tenure.from));
}

export function TransitionsTable({ transitions, observedAt }: { transitions: readonly Tenure[]; observedAt: string }) {
  return (
    <section className="panel" aria-labelledby="transitions-heading">
      <h2 id="transitions-heading">Transitions</h2>
      {transitions.length === 0 ? (
        <p className="muted">The lease has never been held.</p>
      ) : (
        <ScrollTable
          labelledBy="transitions-heading"
          testId="transitions-table"
          columns={[{ label: 'Epoch' }, { label: 'Holder' }, { label: 'From' }, { label: 'To' }, { label: 'Tenure' }]}
        >
          {transitions.map((tenure) => (
            <tr key={tenure.epoch} data-testid="transition-row" data-epoch={tenure.epoch} data-holder={tenure.holder}>
              <td className="num">
                <Epoch value={tenure.epoch} />
              </td>
              <td>
                <code>{tenure.holder}</code> {tenure.label ? <span className="muted">({tenure.label})</span> : null}
              </td>
              <td className="num">
                <Instant iso={tenure.from} /> <span className="muted small">{BEGAN[tenure.began]}</span>
              </td>
              <td className="num">
                {tenure.to ? <Instant iso={tenure.to} /> : 'now'} <span className="muted small">{tenure.ended ? ENDED[tenure.ended] : 'holding'}</span>
              </td>
              <td className="num">{formatDuration(tenureMs(tenure, observedAt))}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

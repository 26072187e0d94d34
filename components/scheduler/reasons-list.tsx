/** The projection's reasons, as the plain sentences it wrote them in. */
import type { Reason } from '@/lib/status';

export function ReasonsList({ reasons }: { reasons: readonly Reason[] }) {
  return (
    <section className="panel" aria-labelledby="reasons-heading">
      <h2 id="reasons-heading">Why</h2>
      {reasons.length === 0 ? (
        <p className="muted">No reasons given.</p>
      ) : (
        <ul className="reasons" data-testid="reasons">
          {reasons.map((reason, index) => (
            <li key={`${reason.code}-${index}`} data-code={reason.code}>
              {/^[a-z]/.test(reason.message) ? reason.message[0]!.toUpperCase() + reason.message.slice(1) : reason.message}
              {/[.!?]$/.test(reason.message) ? '' : '.'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

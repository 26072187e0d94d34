/**
 * "No longer kept (retention 7 days)": the server's 410 `outside_retention`
 * for an instant or a window older than the history it keeps, with the
 * oldest instant kept. Never blank, never "unknown": the past was pruned, not
 * unobserved. Renders on the server (the scheduler page opened with an old
 * `?at=`) and in the browser (the timeline).
 */
import Link from 'next/link';
import type { RetentionRefusal } from '@/lib/api/types';
import { noLongerKept } from '@/lib/client/history-answer';
import { Instant } from '@/components/instant';

export function NotKept({ what, retention, testId }: { what: React.ReactNode; retention: RetentionRefusal; testId: string }) {
  return (
    <p className="banner tone-warn" role="note" data-testid={testId}>
      <span>
        {what}: <strong>{noLongerKept(retention)}</strong>. The oldest instant kept is{' '}
        <time dateTime={retention.oldestKept} data-testid="oldest-kept">
          <Instant iso={retention.oldestKept} />
        </time>
        .
      </span>
    </p>
  );
}

/** The scheduler page for an `?at=` older than what is kept: what was asked, the notice, the way back to live. */
export function AsOfNotKept({ name, at, retention }: { name: string; at: string; retention: RetentionRefusal }) {
  return (
    <section className="panel" data-testid="detail-error">
      <h1>{name}</h1>
      <NotKept
        what={
          <>
            The status as of <Instant iso={at} />
          </>
        }
        retention={retention}
        testId="detail-not-kept"
      />
      <Link href={`/schedulers/${encodeURIComponent(name)}`} data-testid="back-to-live">
        Show the live status instead
      </Link>
    </section>
  );
}

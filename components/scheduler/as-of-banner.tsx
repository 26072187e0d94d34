/** The clear "as of" banner: this page shows the past, rebuilt from the logs, and is not polled. */
import Link from 'next/link';
import { Instant } from '@/components/instant';

export function AsOfBanner({ name, asOf, estimated = [] }: { name: string; asOf: string; estimated?: readonly string[] }) {
  return (
    <div className="banner as-of-banner tone-warn" role="note" data-testid="as-of-banner">
      <p>
        <strong>
          As of <Instant iso={asOf} />
        </strong>{' '}
        — the status rebuilt from the logs for that instant. Not live; not refreshed.
        {estimated.length > 0 ? <span data-testid="as-of-estimated"> Estimated rather than logged: {estimated.join(', ')}.</span> : null}
      </p>
      <Link href={`/schedulers/${encodeURIComponent(name)}`} data-testid="back-to-live">
        Back to live status
      </Link>
    </div>
  );
}

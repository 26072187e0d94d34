'use client';
/**
 * The page's own observation status, in one slot of fixed height (no layout
 * shift when the page goes stale or recovers):
 * live and fresh; or "Not observed since …" when the browser's last
 * successful fetch is older than two poll intervals; and the service's own
 * "store unreadable since …" when the API said observation.ok = false (or
 * which standby answered too far behind, when that is why).
 */
import { useElapsedMs } from '@/lib/client/observation-clock';
import { formatDuration } from '@/lib/status';
import { useObservation } from './observation-context';
import { ToneIcon } from './tone-icon';
import { Instant } from '@/components/instant';

export interface ObservationBannerProps {
  observedAt: string;
  storeOk: boolean;
  lastObservedAt: string | null;
  /** Said when the read was refused because a standby too far behind answered it (lib/client/durability-view.ts `standbyBehindText`). */
  standbyBehind?: string | null;
}

export function ObservationBanner({ observedAt, storeOk, lastObservedAt, standbyBehind = null }: ObservationBannerProps) {
  const { stamp, live, stale } = useObservation();
  const elapsedMs = useElapsedMs(stamp, live) ?? 0;
  const storeSilenceMs = lastObservedAt === null ? null : Math.max(0, Date.parse(observedAt) - Date.parse(lastObservedAt)) + elapsedMs;
  return (
    <div className="observation-slot">
      {/* Only the banners are announced; the ticking "observed … ago" line would chatter every second. */}
      <div aria-live="polite">
        {stale ? (
          <p className="banner tone-unknown" data-testid="not-observed-banner">
            <ToneIcon tone="unknown" />
            <span>
              Not observed since <Instant iso={observedAt} clock /> <span aria-hidden="true">({formatDuration(elapsedMs)})</span> — every state below is
              unknown.
            </span>
          </p>
        ) : null}
        {!storeOk ? (
          <p className="banner tone-bad" data-testid="store-unreadable-banner">
            <ToneIcon tone="bad" />
            <span>
              {standbyBehind ? `${standbyBehind}: ` : null}
              {lastObservedAt ? (
                <>
                  {standbyBehind ? 'nothing current since' : 'Store unreadable since'} <Instant iso={lastObservedAt} clock />{' '}
                  <span aria-hidden="true">({formatDuration(storeSilenceMs ?? 0)})</span> —
                </>
              ) : (
                (standbyBehind ? 'nothing current read yet' : 'The status service has never read its store') + ' —'
              )}{' '}
              every state is unknown.
            </span>
          </p>
        ) : null}
      </div>
      {!stale && storeOk ? (
        <p className="live-line muted" data-testid="observed-status">
          Observed <Instant iso={observedAt} clock /> · <span className="num">{formatDuration(elapsedMs)}</span> ago
        </p>
      ) : null}
    </div>
  );
}

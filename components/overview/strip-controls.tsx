'use client';
/**
 * The strips' window (1 h, 24 h, 7 d) and the rows' order: by health now, or
 * by the worst health in the window (the health filter then picks by that).
 * The shared time axis of every strip sits in the table's header (StripAxisHeader).
 */
import type { ListOrder } from '@/lib/client/list-params';
import { axisTicks, type StripAxis } from '@/lib/client/strip-view';
import { useTimeMode, useTimeZone } from '@/lib/client/time-zone';
import { STRIP_WINDOWS, type StripWindow } from '@/lib/status';

const WINDOW_TEXT: Record<StripWindow, string> = { '1h': '1 h', '24h': '24 h', '7d': '7 d' };

export function StripControls({
  window,
  order,
  worstOffered,
  onWindow,
  onOrder,
}: {
  window: StripWindow;
  order: ListOrder;
  /** False while the rows are selected or grouped by labels, which the ranked strips cannot read. */
  worstOffered: boolean;
  onWindow(window: StripWindow): void;
  onOrder(order: ListOrder): void;
}) {
  return (
    <div className="strip-controls">
      <div className="health-filter" role="group" aria-label="History window">
        {STRIP_WINDOWS.map((w) => (
          <button key={w} type="button" className="filter-button" aria-pressed={window === w} onClick={() => onWindow(w)} data-testid={`window-${w}`}>
            {WINDOW_TEXT[w]}
          </button>
        ))}
      </div>
      <div className="health-filter" role="group" aria-label="Order rows by">
        <button type="button" className="filter-button" aria-pressed={order === 'now'} onClick={() => onOrder('now')} data-testid="order-now">
          Health now
        </button>
        <button
          type="button"
          className="filter-button"
          aria-pressed={order === 'worst'}
          disabled={!worstOffered}
          title={worstOffered ? undefined : 'Not with a label selector or grouping: rows follow health now'}
          onClick={() => onOrder('worst')}
          data-testid="order-worst"
        >
          Worst in window
        </button>
      </div>
    </div>
  );
}

/** The time axis every strip shares: ticks on the viewer's clock (or UTC), and the legend of colours. */
export function StripAxisHeader({ window, axis }: { window: StripWindow; axis: StripAxis | null }) {
  const mode = useTimeMode();
  const timeZone = useTimeZone();
  return (
    <span className="strip-axis-head">
      <span>History ({WINDOW_TEXT[window]})</span>
      <span className="strip-axis" aria-hidden="true" data-testid="strip-axis">
        {axis === null
          ? null
          : axisTicks(window, axis, mode, timeZone).map((t) => (
              <span key={t.left} className="strip-tick" style={{ left: `${t.left}%` }}>
                {t.label}
              </span>
            ))}
      </span>
    </span>
  );
}

/** Which colour is which health (the strip also says it in words on hover, focus and to screen readers). */
export function StripLegend() {
  const items = [
    ['stalled', 'Stalled'],
    ['no_leader', 'No leader'],
    ['unknown', 'Unknown'],
    ['disabled', 'Disabled'],
    ['idle', 'Idle'],
    ['progressing', 'Progressing'],
  ] as const;
  return (
    <ul className="strip-legend small" aria-label="Strip colours" data-testid="strip-legend">
      {items.map(([health, label]) => (
        <li key={health}>
          <span className={`strip-swatch health-${health}`} aria-hidden="true" />
          {label}
        </li>
      ))}
      <li>
        <span className="strip-swatch health-unknown not-observed" aria-hidden="true" />
        Not observed
      </li>
    </ul>
  );
}

'use client';
/**
 * One scheduler's health over the chosen window: segments on the axis all
 * rows share, each a link to that moment (`?at=`, UTC) that says what it was
 * on hover and on keyboard focus; the row's facts in one sentence for screen
 * readers. Nothing is drawn before the scheduler registered.
 * Segments are plain links (a page draws hundreds, re-drawn as the window
 * moves); one handler per strip opens them with the client router, as
 * next/link would, and leaves modified clicks (new tab, …) to the browser.
 */
import { useRouter } from 'next/navigation';
import { memo, useCallback, useId, type MouseEvent } from 'react';
import { withBasePath } from '@/lib/client/base-path';
import type { StripRow } from '@/lib/api/types';
import { placeSegments, stripSummary, WINDOW_LABEL, type StripAxis } from '@/lib/client/strip-view';
import { formatInstant, type TimeMode } from '@/lib/client/time-zone';
import type { StripWindow } from '@/lib/status';

export interface HealthStripProps {
  row: StripRow | undefined;
  axis: StripAxis | null;
  window: StripWindow;
  mode: TimeMode;
  timeZone: string | undefined;
}

/** A plain left click on a segment: the route it opens (without the base path), else null. */
function routeOfClick(event: MouseEvent<HTMLElement>): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  return (event.target as Element).closest<HTMLElement>('[data-route]')?.dataset.route ?? null;
}

export const HealthStrip = memo(function HealthStrip({ row, axis, window, mode, timeZone }: HealthStripProps) {
  const summaryId = useId();
  const router = useRouter();
  const onClick = useCallback(
    (event: MouseEvent<HTMLElement>) => {
      const route = routeOfClick(event);
      if (route === null) return;
      event.preventDefault();
      router.push(route);
    },
    [router],
  );
  if (row === undefined || axis === null) {
    // As tall as the strip it stands for (its ends' line included), so nothing below moves when it arrives.
    return (
      <div className="strip-wrap" aria-hidden="true">
        <div className="strip is-loading" data-testid="strip" data-state="loading" />
        <span className="strip-ends">{'\u00a0'}</span>
      </div>
    );
  }
  const placed = placeSegments(row, axis, mode, timeZone);
  return (
    <div className="strip-wrap">
      <span id={summaryId} className="visually-hidden" data-testid="strip-summary">
        {stripSummary(row, WINDOW_LABEL[window], mode, timeZone)}
      </span>
      <div
        className="strip"
        role="group"
        aria-describedby={summaryId}
        data-testid="strip"
        data-worst={row.worst ?? 'none'}
        data-since={row.since ?? ''}
        onClick={onClick}
      >
        {placed.map((p) => (
          <a
            key={p.segment.from}
            className={`strip-seg health-${p.segment.health} ${p.segment.notObserved ? 'not-observed' : ''}`}
            style={{ left: `${p.left}%`, width: `${p.width}%` }}
            href={withBasePath(p.href)}
            data-route={p.href}
            aria-label={`${p.label}; open that moment`}
            data-testid="strip-segment"
            data-health={p.segment.health}
            data-from={p.segment.from}
            data-to={p.segment.to}
            data-at={p.segment.at}
          >
            <span className="strip-tip" aria-hidden="true">
              {p.label}
            </span>
          </a>
        ))}
      </div>
      <span className="strip-ends" aria-hidden="true">
        <span>{formatInstant(axis.fromIso, mode, { seconds: false, timeZone })}</span>
        <span>now</span>
      </span>
    </div>
  );
});

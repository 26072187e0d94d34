'use client';
/**
 * One scheduler's health over the chosen window: segments on the axis all
 * rows share, each a link to that moment (`?at=`, UTC) that says what it was
 * on hover and on keyboard focus; the row's facts in one sentence for screen
 * readers. Nothing is drawn before the scheduler registered.
 */
import Link from 'next/link';
import { memo, useId } from 'react';
import type { StripRow } from '@/lib/api/types';
import { placeSegments, stripSummary, WINDOW_LABEL, type StripAxis } from '@/lib/client/strip-view';
import { formatInstant, type TimeMode } from '@/lib/client/time-zone';
import type { StripWindow } from '@/lib/status';

export interface HealthStripProps {
  row: StripRow | undefined;
  axis: StripAxis | null;
  window: StripWindow;
  mode: TimeMode;
}

export const HealthStrip = memo(function HealthStrip({ row, axis, window, mode }: HealthStripProps) {
  const summaryId = useId();
  if (row === undefined || axis === null) return <div className="strip is-loading" aria-hidden="true" data-testid="strip" data-state="loading" />;
  const placed = placeSegments(row, axis, mode);
  return (
    <div className="strip-wrap">
      <span id={summaryId} className="visually-hidden" data-testid="strip-summary">
        {stripSummary(row, WINDOW_LABEL[window], mode)}
      </span>
      <div className="strip" role="group" aria-describedby={summaryId} data-testid="strip" data-worst={row.worst ?? 'none'} data-since={row.since ?? ''}>
        {placed.map((p) => (
          <Link
            key={p.segment.from}
            prefetch={false}
            className={`strip-seg health-${p.segment.health} ${p.segment.notObserved ? 'not-observed' : ''}`}
            style={{ left: `${p.left}%`, width: `${p.width}%` }}
            href={p.href}
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
          </Link>
        ))}
      </div>
      <span className="strip-ends" aria-hidden="true">
        <span>{formatInstant(axis.fromIso, mode, { seconds: false })}</span>
        <span>now</span>
      </span>
    </div>
  );
});

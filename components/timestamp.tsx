'use client';
/**
 * A relative time ("12 s ago", ticking) that reveals the absolute UTC instant
 * on hover AND on keyboard focus (a `title` alone shows on neither focus nor
 * touch). The absolute value is the server's ISO string, never the browser clock.
 */
import { useId } from 'react';
import { formatUtc } from '@/lib/client/format';
import { AgeText } from './ticking-text';

export function RelativeTime({ iso, ageMs, testId }: { iso: string | null; ageMs: number | null; testId?: string }) {
  const tipId = useId();
  if (iso === null) {
    return (
      <span className="muted" data-testid={testId}>
        never
      </span>
    );
  }
  return (
    <span className="reltime">
      <time dateTime={iso} tabIndex={0} aria-describedby={tipId} data-testid={testId}>
        <AgeText serverMs={ageMs} />
      </time>
      <span role="tooltip" id={tipId} className="reltime-tip">
        {formatUtc(iso)}
      </span>
    </span>
  );
}

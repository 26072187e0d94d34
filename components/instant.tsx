'use client';
/**
 * An absolute instant in the viewer's zone (or UTC, as switched in the
 * header), with the UTC value on hover and keyboard focus. The server and the
 * hydration render show the choice the server's cookie named (UTC without
 * one: lib/client/time-zone.ts), so hydration changes no text for a
 * returning viewer. `dateTime` is always the server's UTC ISO.
 */
import { useId } from 'react';
import { formatUtc } from '@/lib/client/format';
import { formatInstant, useTimeMode, useTimeZone } from '@/lib/client/time-zone';

export function Instant({ iso, seconds = true, clock = false, testId }: { iso: string; seconds?: boolean; clock?: boolean; testId?: string }) {
  const mode = useTimeMode();
  const timeZone = useTimeZone();
  const tipId = useId();
  const text = formatInstant(iso, mode, { seconds, clockOnly: clock, timeZone });
  if (mode === 'utc') {
    return (
      <time dateTime={iso} data-testid={testId} data-mode="utc">
        {text}
      </time>
    );
  }
  return (
    <span className="reltime">
      <time dateTime={iso} tabIndex={0} aria-describedby={tipId} data-testid={testId} data-mode="local">
        {text}
      </time>
      <span role="tooltip" id={tipId} className="reltime-tip" data-testid={testId ? `${testId}-utc` : undefined}>
        {formatUtc(iso)}
      </span>
    </span>
  );
}

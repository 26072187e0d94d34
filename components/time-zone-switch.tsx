'use client';
/**
 * The header's switch between the viewer's local time and UTC; remembered in this browser and, for the
 * server's next render, in a cookie (lib/client/time-zone.ts `TimeChoiceProvider` writes it). On every page.
 */
import { setTimeMode, useTimeMode } from '@/lib/client/time-zone';

export function TimeZoneSwitch() {
  const mode = useTimeMode();
  return (
    <div className="time-switch small" role="group" aria-label="Show times in">
      {(['local', 'utc'] as const).map((m) => (
        <button key={m} type="button" className="filter-button" aria-pressed={mode === m} onClick={() => setTimeMode(m)} data-testid={`time-${m}`}>
          {m === 'local' ? 'Local time' : 'UTC'}
        </button>
      ))}
    </div>
  );
}

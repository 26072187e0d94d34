/**
 * "Unknown after observation gap" with the gap's span and reason; an earlier,
 * closed gap that no longer decides the state reads as a quiet note. While
 * this page's own observation is stale it claims nothing ("not observed").
 */
import { formatUtcClock } from '@/lib/client/format';
import { gapSpanStart, gapSpanText, type GapView } from '@/lib/client/status-view';
import { DurationText } from './ticking-text';
import { ToneIcon } from './tone-icon';

export function GapBadge({ gap, stale = false, testId }: { gap: GapView | null; stale?: boolean; testId?: string }) {
  if (stale) {
    return (
      <span className="muted" data-testid={testId} data-gap="not-observed">
        not observed (stale)
      </span>
    );
  }
  if (gap === null) {
    return (
      <span className="muted" data-testid={testId} data-gap="none">
        continuous
      </span>
    );
  }
  if (!gap.causesUnknown) {
    const span = gapSpanText(gap, formatUtcClock);
    return (
      <span className="gap-note muted" data-testid={testId} data-gap="earlier" title={`Earlier gap ${span}: ${gap.reasonText}`}>
        earlier gap {span}
      </span>
    );
  }
  return (
    <span className="gap-badge" data-testid={testId} data-gap="unknown" data-gap-reason={gap.reason}>
      <span className="badge tone-unknown">
        <ToneIcon tone="unknown" />
        <span>Unknown after observation gap</span>
      </span>
      <span className="gap-span" data-testid={testId ? `${testId}-span` : undefined}>
        {gapSpanStart(gap, formatUtcClock)} (<DurationText serverMs={gap.durationMs} growing={gap.open} />) · {gap.reasonText}
      </span>
    </span>
  );
}

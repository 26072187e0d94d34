/** Health as a word, an icon and a colour; "Unknown (stale)" when the browser's observation is too old. */
import { HEALTH_LOOK, type Tone } from '@/lib/client/health-display';
import type { Health } from '@/lib/status';
import { HEALTH_ICON, ToneIcon, type IconName } from './tone-icon';

export function HealthBadge({ health, stale = false, testId }: { health: Health; stale?: boolean; testId?: string }) {
  const look = HEALTH_LOOK[health];
  const label = stale ? 'Unknown (stale)' : look.label;
  const tone: Tone = stale ? 'unknown' : look.tone;
  return (
    <span className={`badge tone-${tone}`} data-testid={testId} data-health={stale ? 'unknown' : health} data-stale={stale || undefined}>
      <ToneIcon tone={tone} icon={HEALTH_ICON[stale ? 'unknown' : health]} />
      <span>{label}</span>
    </span>
  );
}

/** A plain state word with icon and tone (authority and work axes). */
export function StateChip({ label, tone, icon, testId, state }: { label: string; tone: Tone; icon?: IconName; testId?: string; state?: string }) {
  return (
    <span className={`chip tone-${tone}`} data-testid={testId} data-state={state}>
      <ToneIcon tone={tone} icon={icon} />
      <span>{label}</span>
    </span>
  );
}

/** Counts by health over all schedulers, worst first; each count is also the filter for that health. */
import { HEALTH_LOOK } from '@/lib/client/health-display';
import { HEALTH_SEVERITY, type Health } from '@/lib/status';
import { HEALTH_ICON, ToneIcon } from '../tone-icon';

export interface HealthFilterProps {
  counts: Partial<Record<Health, number>>;
  selected: Health | null;
  stale: boolean;
  onSelect(health: Health | null): void;
}

export function HealthFilter({ counts, selected, stale, onSelect }: HealthFilterProps) {
  const total = HEALTH_SEVERITY.reduce((sum, health) => sum + (counts[health] ?? 0), 0);
  return (
    <div
      className={`health-filter ${stale ? 'is-stale' : ''}`}
      role="group"
      aria-label={stale ? 'Filter by health (counts as last observed)' : 'Filter by health'}
    >
      <button type="button" className="filter-button" aria-pressed={selected === null} onClick={() => onSelect(null)} data-testid="filter-all">
        <span>All</span>
        <span className="num count" data-testid="count-all">
          {total}
        </span>
      </button>
      {HEALTH_SEVERITY.map((health) => {
        const look = HEALTH_LOOK[health];
        const tone = stale ? 'unknown' : look.tone;
        return (
          <button
            key={health}
            type="button"
            className={`filter-button tone-${tone}`}
            aria-pressed={selected === health}
            onClick={() => onSelect(selected === health ? null : health)}
            data-testid={`filter-${health}`}
          >
            <ToneIcon tone={tone} icon={HEALTH_ICON[health]} />
            <span>{look.label}</span>
            <span className="num count" data-testid={`count-${health}`}>
              {counts[health] ?? 0}
            </span>
          </button>
        );
      })}
    </div>
  );
}

/**
 * A group's heading in the overview table: the label and its value, how many
 * schedulers the group holds in the whole selection (not only this page),
 * and its count per health, worst first, each with its word and icon.
 * Unknown keeps its own tone (never green); a stale page greys every count.
 */
import type { GroupSummary } from '@/lib/api/types';
import { HEALTH_LOOK } from '@/lib/client/health-display';
import { HEALTH_SEVERITY } from '@/lib/status';
import { HEALTH_ICON, ToneIcon } from '../tone-icon';

export function GroupSummaryLine({ labelKey, summary, stale }: { labelKey: string; summary: GroupSummary; stale: boolean }) {
  return (
    <span className="group-summary" data-testid="group-summary">
      <span className="group-name" data-testid="group-name">
        {summary.value === null ? `no ${labelKey} label` : `${labelKey}=${summary.value}`}
      </span>
      <span className="muted num" data-testid="group-total">
        {summary.total} scheduler{summary.total === 1 ? '' : 's'}
      </span>
      {HEALTH_SEVERITY.filter((health) => summary.counts[health] > 0).map((health) => {
        const tone = stale ? 'unknown' : HEALTH_LOOK[health].tone;
        return (
          <span key={health} className={`badge tone-${tone}`} data-testid={`group-count-${health}`} data-count={summary.counts[health]}>
            <ToneIcon tone={tone} icon={HEALTH_ICON[health]} />
            <span className="num">{summary.counts[health]}</span> {HEALTH_LOOK[health].label.toLowerCase()}
          </span>
        );
      })}
    </span>
  );
}

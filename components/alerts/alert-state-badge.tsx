/** An alert's state in words, icon and colour; shadow (and off) say so and are never red. */
import type { AlertModeName, SchedulerAlert } from '@/lib/api/types';
import { alertTone } from '@/lib/client/alerts-display';
import { ToneIcon } from '../tone-icon';

export function AlertStateBadge({ state, mode }: { state: SchedulerAlert['state']; mode: AlertModeName }) {
  const tone = alertTone(state, mode);
  return (
    <span className={`badge tone-${tone}`} data-testid="alert-state" data-state={state} data-mode={mode}>
      <ToneIcon tone={tone} />
      <span>
        {state}
        {mode === 'on' ? '' : ` (${mode})`}
      </span>
    </span>
  );
}

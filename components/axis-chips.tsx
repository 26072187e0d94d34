/**
 * The two axes' state chips, as the overview row and the scheduler page show
 * them: what each says, and its withdrawal once the browser's observation is
 * stale, come from lib/client/status-view.ts (`authorityChip`, `workChip`).
 */
import { authorityChip, type StatusView, workChip } from '@/lib/client/status-view';
import { StateChip } from './health-badge';
import { AUTHORITY_ICON, WORK_ICON } from './tone-icon';

export function AuthorityChip({ view, testId }: { view: StatusView; testId?: string }) {
  const chip = authorityChip(view);
  return <StateChip label={chip.label} tone={chip.tone} icon={AUTHORITY_ICON[chip.state]} state={chip.state} testId={testId} />;
}

export function WorkChip({ view, testId }: { view: StatusView; testId?: string }) {
  const chip = workChip(view);
  return <StateChip label={chip.label} tone={chip.tone} icon={WORK_ICON[chip.state]} state={chip.state} testId={testId} />;
}

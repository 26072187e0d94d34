/**
 * The last run's outcome (SchedulerStatus.lastRun), a badge of its own beside —
 * never inside — health, authority and progress: "Last run failed · exit 3",
 * "Last run interrupted", "Last run succeeded". Unknown and "none yet" say so
 * plainly and are never coloured as a failure; while this page's observation
 * is stale it claims nothing. `quiet` (the overview's rows) shows only what
 * needs a look: failed or interrupted.
 */
import type { Tone } from '@/lib/client/health-display';
import type { LastRunStatus } from '@/lib/status';
import { ToneIcon } from './tone-icon';

const LOOK: Record<LastRunStatus['state'], { tone: Tone; label: (run: LastRunStatus) => string }> = {
  failed: { tone: 'bad', label: (run) => `Last run failed · exit ${run.exitCode ?? '?'}` },
  // Why (a takeover, or its own holder stopping) is in the title: SchedulerStatus.lastRun.message.
  interrupted: { tone: 'warn', label: () => 'Last run interrupted' },
  succeeded: { tone: 'good', label: () => 'Last run succeeded' },
  none: { tone: 'muted', label: () => 'No run ended yet' },
  unknown: { tone: 'unknown', label: () => 'Last run unknown' },
};

export function LastRunBadge({ run, stale = false, quiet = false, testId }: { run: LastRunStatus; stale?: boolean; quiet?: boolean; testId?: string }) {
  if (stale || (quiet && run.state !== 'failed' && run.state !== 'interrupted')) return null;
  const look = LOOK[run.state];
  return (
    <span className={`badge tone-${look.tone}`} data-testid={testId} data-last-run={run.state} data-exit-code={run.exitCode ?? undefined} title={run.message}>
      <ToneIcon tone={look.tone} />
      <span>{look.label(run)}</span>
    </span>
  );
}

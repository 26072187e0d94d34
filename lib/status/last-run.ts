/**
 * The last run's outcome (`SchedulerStatus.lastRun`): did the newest
 * occurrence that ended complete or fail, and with which exit code — or was
 * the newest one interrupted by a lease loss. A fact of its own: it never
 * changes `health`, the authority or the work state, and the dashboard shows
 * it apart from them.
 *
 * Guarantees: pure; missing evidence is `unknown` (store unreadable, or
 * occurrences not read), never `failed` (docs/design.md, invariant 8); a
 * failure is only ever a stored `failed` row with its exit code.
 * Non-guarantees: why a lease was lost (renewal refused or self-suspicion)
 * is known only to the holder that lost it (its `lost` and `child_stopping`
 * events); here, only that its epoch no longer holds the lease.
 */
import type { LastRunStatus, OccurrenceFacts, SchedulerFacts } from './types';

const unknown = (message: string): LastRunStatus => ({ state: 'unknown', occurrence: null, exitCode: null, endedAt: null, message });

export function judgeLastRun(facts: SchedulerFacts): LastRunStatus {
  if (!facts.store.ok) return unknown('last run unknown: the store could not be read');
  if (facts.lastRun === undefined) return unknown('last run unknown: not observed');
  const { newest, ended } = facts.lastRun;
  if (newest !== null && newest.state === 'running' && interrupted(newest, facts)) {
    return {
      state: 'interrupted',
      occurrence: newest.occurrence,
      exitCode: null,
      endedAt: null,
      message: interruptedBecause(newest, facts),
    };
  }
  if (ended === null) return { state: 'none', occurrence: null, exitCode: null, endedAt: null, message: 'no occurrence has ended yet' };
  switch (ended.state) {
    case 'completed':
      return { state: 'succeeded', occurrence: ended.occurrence, exitCode: null, endedAt: ended.endedAt, message: `occurrence ${ended.occurrence} completed` };
    case 'failed':
      return {
        state: 'failed',
        occurrence: ended.occurrence,
        exitCode: ended.exitCode,
        endedAt: ended.endedAt,
        message: `occurrence ${ended.occurrence} failed with exit code ${ended.exitCode ?? 'unknown'}`,
      };
    case 'running':
      return unknown('last run unknown: the ended occurrence read is still running');
    default: {
      const never: never = ended.state;
      return never;
    }
  }
}

/** A running occurrence whose epoch no longer holds the lease: a newer epoch was granted, or the lease was released. */
function interrupted(occurrence: OccurrenceFacts, facts: SchedulerFacts): boolean {
  const lease = facts.lease;
  if (lease === null) return false;
  return lease.epoch > occurrence.epoch || (lease.epoch === occurrence.epoch && lease.released);
}

/** Why it was interrupted: a newer epoch took the lease, or its own holder released it (stopped) before the occurrence ended. */
function interruptedBecause(occurrence: OccurrenceFacts, facts: SchedulerFacts): string {
  const why =
    facts.lease !== null && facts.lease.epoch > occurrence.epoch
      ? `epoch ${occurrence.epoch} lost the lease to epoch ${facts.lease.epoch} before it ended`
      : `epoch ${occurrence.epoch} released the lease (its holder stopped) before it ended`;
  return `occurrence ${occurrence.occurrence} was interrupted: ${why}`;
}

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
 * Interrupted, and why, from what the store shows: a newer epoch took the
 * lease (the old holder's renewals are refused from then on), the epoch's own
 * holder released it (it stopped), or the epoch's lease expired with nobody
 * after it (its renewals stopped: a paused holder, one cut off from the
 * database, or one that suspected itself and stopped the work).
 * Non-guarantees: which of those last three it was is known only to the holder
 * (its `lost` event says `renewal_refused` or `self_suspected`, the exec
 * runner's `child_stopping` says why it signalled the command).
 */
import type { AuthorityState, LastRunStatus, OccurrenceFacts, SchedulerFacts } from './types';

const unknown = (message: string): LastRunStatus => ({ state: 'unknown', occurrence: null, exitCode: null, endedAt: null, message });

export function judgeLastRun(facts: SchedulerFacts, authority: AuthorityState): LastRunStatus {
  if (!facts.store.ok) return unknown('last run unknown: the store could not be read');
  if (facts.lastRun === undefined) return unknown('last run unknown: not observed');
  const { newest, ended } = facts.lastRun;
  if (newest !== null && newest.state === 'running' && interrupted(newest, facts, authority)) {
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

/** A running occurrence whose epoch no longer holds the lease: a newer epoch was granted, the lease was released, or it expired. */
function interrupted(occurrence: OccurrenceFacts, facts: SchedulerFacts, authority: AuthorityState): boolean {
  const lease = facts.lease;
  if (lease === null) return false;
  return lease.epoch > occurrence.epoch || (lease.epoch === occurrence.epoch && (lease.released || authority === 'expired'));
}

/** Why it was interrupted, as far as the store can tell. */
function interruptedBecause(occurrence: OccurrenceFacts, facts: SchedulerFacts): string {
  const why =
    facts.lease !== null && facts.lease.epoch > occurrence.epoch
      ? `epoch ${occurrence.epoch} lost the lease to epoch ${facts.lease.epoch} before it ended`
      : facts.lease?.released
        ? `epoch ${occurrence.epoch} released the lease (its holder stopped) before it ended`
        : `epoch ${occurrence.epoch}'s lease expired before it ended: its holder stopped renewing (paused, cut off from the database, or it suspected itself and stopped the work)`;
  return `occurrence ${occurrence.occurrence} was interrupted: ${why}`;
}

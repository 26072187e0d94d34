/**
 * Evidence from the projection: what the alert rules read of a
 * `SchedulerStatus` (never raw rows).
 *
 * Guarantees: pure; `storeReadable` is false exactly when the projection
 * says the store could not be read (authority `unknown`).
 * Non-guarantees: `lastRejectionAt` is not part of the status; the caller
 * reads it from the rejection log in the same read as the statuses.
 */
import type { SchedulerStatus } from '../status/types';
import type { IsoTime, SchedulerEvidence } from './types';

export function schedulerEvidence(status: SchedulerStatus, lastRejectionAt: IsoTime | null = null): SchedulerEvidence {
  return {
    scheduler: status.name,
    health: status.health,
    atRisk: status.authority.atRisk,
    storeReadable: status.authority.state !== 'unknown',
    lastRejectionAt,
    reasons: status.reasons,
  };
}

/**
 * The rule catalogue: every alert Leaseboard raises, its scope, severity,
 * default timings, and its condition over the projection's answer.
 *
 * Guarantees: pure; `judgeScheduler`/`judgeService` read only evidence (the
 * projected status, never rows) and are exhaustive over the rule names, so a
 * new rule cannot be forgotten.
 * - Unknown is never OK and never stalled: health `unknown` makes every
 *   scheduler rule's condition `unknown` (held: neither fires nor resolves),
 *   except `SchedulerUnknown`, whose condition it is.
 * - `StatusStoreUnreadable` stands for all: while the evaluator cannot read
 *   the store, every scheduler rule (SchedulerUnknown included) judges
 *   `unknown`, so an unreadable store raises ONE alert, never one per scheduler.
 *   (The shipped Alertmanager inhibit rule covers the Prometheus-native path,
 *   where every `SchedulerUnknown` would fire.)
 * - `StaleWritesRejected` reads the store's rejection log, a fact that does
 *   not depend on the scheduler's reports: a silent (unknown) scheduler's
 *   rejections still count; only an unreadable store makes it unknown.
 * Non-guarantees: timings live in ./config.ts; delivery in ./delivery.
 */
import { toMs } from '../status/time';
import type { AlertName, Condition, SchedulerAlertName, SchedulerEvidence, ServiceAlertName, ServiceEvidence, Severity } from './types';

import { ALERT_NAMES, SCHEDULER_ALERT_NAMES } from '../api/alert-names';

/** The rules' names come from the contract's one list; the catalogue gives each its meaning below. */
export { ALERT_NAMES, SCHEDULER_ALERT_NAMES, SERVICE_ALERT_NAMES } from '../api/alert-names';

export function isAlertName(value: string): value is AlertName {
  return (ALERT_NAMES as readonly string[]).includes(value);
}

export function isSchedulerAlert(name: AlertName): name is SchedulerAlertName {
  return (SCHEDULER_ALERT_NAMES as readonly string[]).includes(name);
}

export interface RuleInfo {
  severity: Severity;
  /** One line: when it fires (runbooks and rule files say it the same way). */
  fires: string;
}

export function ruleInfo(name: AlertName): RuleInfo {
  switch (name) {
    case 'SchedulerStalled':
      return { severity: 'critical', fires: 'the scheduler reads stalled: its lease is held and renewed, reports arrive, but its work does not advance' };
    case 'SchedulerNoLeader':
      return { severity: 'critical', fires: 'nobody holds the lease (never held, expired or released) and no operator disabled the scheduler' };
    case 'SchedulerUnknown':
      return { severity: 'warning', fires: "the scheduler's status is unknown: an observation gap (silent or lost reports, a new leader not reported yet)" };
    case 'LeaseRenewalAtRisk':
      return { severity: 'warning', fires: "the holder's renewal age exceeds the at-risk fraction of its lease ttl" };
    case 'StaleWritesRejected':
      return { severity: 'warning', fires: "the fence rejected a write carrying a stale epoch within the rule's window" };
    case 'StatusStoreUnreadable':
      return { severity: 'critical', fires: 'the status service cannot read its store; every scheduler reads unknown' };
    case 'Watchdog':
      return { severity: 'none', fires: 'always: it proves the alert pipeline alive (a dead man’s switch)' };
    default: {
      const never: never = name;
      return never;
    }
  }
}

function whenHealth(e: SchedulerEvidence, bad: SchedulerEvidence['health']): Condition {
  if (e.health === 'unknown') return 'unknown';
  return e.health === bad ? 'true' : 'false';
}

/**
 * A scheduler rule's condition. `nowMs` and `windowMs` serve the rejection
 * window only: a rejection at `r` counts while `0 ≤ now − r ≤ window`.
 */
export function judgeScheduler(name: SchedulerAlertName, e: SchedulerEvidence, nowMs: number, windowMs: number): Condition {
  if (!e.storeReadable) return 'unknown';
  switch (name) {
    case 'SchedulerStalled':
      return whenHealth(e, 'stalled');
    case 'SchedulerNoLeader':
      // `disabled` is the operator's choice, not a missing leader.
      return whenHealth(e, 'no_leader');
    case 'SchedulerUnknown':
      return e.health === 'unknown' ? 'true' : 'false';
    case 'LeaseRenewalAtRisk':
      if (e.health === 'unknown') return 'unknown';
      return e.atRisk ? 'true' : 'false';
    case 'StaleWritesRejected': {
      if (e.lastRejectionAt === null) return 'false';
      const age = nowMs - toMs('lastRejectionAt', e.lastRejectionAt);
      return age >= 0 && age <= windowMs ? 'true' : 'false';
    }
    default: {
      const never: never = name;
      return never;
    }
  }
}

export function judgeService(name: ServiceAlertName, e: ServiceEvidence): Condition {
  switch (name) {
    case 'StatusStoreUnreadable':
      return e.storeReadable ? 'false' : 'true';
    case 'Watchdog':
      return 'true';
    default: {
      const never: never = name;
      return never;
    }
  }
}

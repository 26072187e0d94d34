/**
 * Conditions: one status told as Kubernetes-shaped conditions
 * (`{ type, status, reason, message, lastTransitionTime }`), for consumers
 * that already read them (kubectl-style tooling, kstatus, generic checks).
 *
 * Four types, one per axis, never inferred from one another (docs/design.md, invariant 7):
 * - `LeaseHeld`   — authority: someone holds the lease now.
 * - `Progressing` — work: the holder's work advanced within the stall threshold.
 * - `Observed`    — observation: the evidence is current (no open observation gap).
 * - `Enabled`     — the operator's intent: not disabled for maintenance.
 *
 * Guarantees: pure — derived from the projection's output alone and `now`
 * (the instant it was projected at; it tells an open gap from a closed one);
 * missing evidence is `Unknown`, never `True` (an unreadable store makes
 * LeaseHeld, Progressing and Enabled `Unknown`, and Observed `False`: that the
 * evidence is missing is itself known). `lastTransitionTime` is only ever a
 * time the facts pin as the start of the current status, else null:
 * - LeaseHeld True: `acquiredAt` (a tenure is one span, and a takeover follows an expiry);
 *   False (expired or released): `expiresAt` (a release sets it to the release instant);
 * - Progressing False for lack of a leader: the same `expiresAt`; Unknown because
 *   the current epoch has not reported: `acquiredAt`;
 * - Observed False: the open gap's `from` (the API's own gap); True after a closed
 *   gap: its `to` (the first report after it);
 * - Enabled: the recorded intent's `at`.
 * Non-guarantees: a progressing, stalled, idle or silent scheduler's transition
 * time is null — the projection keeps the last advance and report, not when the
 * current judgement began (an earlier break may have made it unknown in between).
 */
import { toMs } from './time';
import type { Condition, ConditionReason, ObservationGap, Reason, ReasonCode, SchedulerStatus } from './types';

export function conditionsOf(status: SchedulerStatus, now: string): Condition[] {
  return [leaseHeld(status), progressing(status), observed(status, toMs('now', now)), enabled(status)];
}

function messages(status: SchedulerStatus, codes: readonly ReasonCode[]): string {
  return status.reasons
    .filter((r: Reason) => codes.includes(r.code))
    .map((r) => r.message)
    .join('; ');
}

const AUTHORITY_CODES: readonly ReasonCode[] = [
  'store_unreadable',
  'authority_held',
  'renewal_at_risk',
  'authority_expired',
  'authority_released',
  'authority_none',
];

function leaseHeld(status: SchedulerStatus): Condition {
  const a = status.authority;
  const message = messages(status, AUTHORITY_CODES);
  const condition = (s: Condition['status'], reason: ConditionReason, lastTransitionTime: string | null): Condition => ({
    type: 'LeaseHeld',
    status: s,
    reason,
    message,
    lastTransitionTime,
  });
  switch (a.state) {
    case 'held':
      return condition('True', a.atRisk ? 'RenewalAtRisk' : 'Held', a.acquiredAt);
    case 'expired':
      return condition('False', 'Expired', a.expiresAt);
    case 'released':
      return condition('False', 'Released', a.expiresAt);
    case 'none':
      return condition('False', 'NeverHeld', null);
    case 'unknown':
      return condition('Unknown', 'StoreUnreadable', null);
    default: {
      const never: never = a.state;
      return never;
    }
  }
}

const WORK_CODES: readonly ReasonCode[] = [
  'store_unreadable',
  'no_report_yet',
  'previous_epoch_only',
  'epoch_mismatch',
  'reports_silent',
  'reports_broken',
  'work_progressing',
  'work_stalled',
  'work_overdue',
  'work_idle',
  'stall_unprovable',
  'reports_after_expiry',
];

/** Why the work is unknown, from the projection's reasons (first match wins: the most specific). */
const UNKNOWN_WORK: readonly [ReasonCode, ConditionReason][] = [
  ['no_report_yet', 'NoReportYet'],
  ['previous_epoch_only', 'PreviousEpochOnly'],
  ['reports_silent', 'ReportsSilent'],
  ['reports_broken', 'ReportsBroken'],
  ['stall_unprovable', 'StallUnprovable'],
];

function progressing(status: SchedulerStatus): Condition {
  const a = status.authority;
  const has = (code: ReasonCode) => status.reasons.some((r) => r.code === code);
  const condition = (
    s: Condition['status'],
    reason: ConditionReason,
    lastTransitionTime: string | null,
    message = messages(status, WORK_CODES),
  ): Condition => ({
    type: 'Progressing',
    status: s,
    reason,
    message,
    lastTransitionTime,
  });
  if (a.state === 'unknown') return condition('Unknown', 'StoreUnreadable', null);
  if (a.state !== 'held') {
    // No lease, no fenced work: a fact since the authority ended (never held: since always, not pinned).
    const ended = a.state === 'none' ? null : a.expiresAt;
    const after = messages(status, ['reports_after_expiry']);
    return condition('False', 'NoLeader', ended, `nobody holds the lease: no fenced work can be done${after === '' ? '' : `; ${after}`}`);
  }
  switch (status.work.state) {
    case 'progressing':
      return condition('True', 'Advancing', null);
    case 'stalled':
      return condition('False', has('work_overdue') ? 'Overdue' : 'Stalled', null);
    case 'idle':
      return condition('False', 'Idle', null);
    case 'unknown':
    case 'none': {
      const reason = UNKNOWN_WORK.find(([code]) => has(code))?.[1] ?? 'NotProven';
      // Not one report of this epoch: unknown since it began.
      const since = reason === 'NoReportYet' || reason === 'PreviousEpochOnly' ? a.acquiredAt : null;
      return condition('Unknown', reason, since);
    }
    default: {
      const never: never = status.work.state;
      return never;
    }
  }
}

const GAP_REASON: Record<ObservationGap['reason'], ConditionReason> = {
  silence: 'ReportsSilent',
  lost_reports: 'ReportsLost',
  store_unreadable: 'StoreUnreadable',
  no_report_yet: 'NoReportYet',
  previous_epoch_only: 'PreviousEpochOnly',
  failover: 'Failover',
};

function observed(status: SchedulerStatus, nowMs: number): Condition {
  const gap = status.observation.gap;
  const base = { type: 'Observed' as const };
  if (gap !== null && toMs('observation.gap.to', gap.to) >= nowMs) {
    return {
      ...base,
      status: 'False',
      reason: GAP_REASON[gap.reason],
      message: `no observation since ${gap.from} (${gap.reason.replaceAll('_', ' ')})`,
      lastTransitionTime: gap.from,
    };
  }
  if (gap !== null) {
    return {
      ...base,
      status: 'True',
      reason: 'ResumedAfterGap',
      message: `observed again since ${gap.to}, after a gap from ${gap.from} (${gap.reason.replaceAll('_', ' ')})`,
      lastTransitionTime: gap.to,
    };
  }
  if (status.authority.state === 'held') {
    return { ...base, status: 'True', reason: 'Reporting', message: "the holder's reports arrive within the gap threshold", lastTransitionTime: null };
  }
  return {
    ...base,
    status: 'True',
    reason: 'NoReportsExpected',
    message: 'the store was read; nobody holds the lease, so no reports are expected',
    lastTransitionTime: null,
  };
}

function enabled(status: SchedulerStatus): Condition {
  const intent = status.intent;
  const base = { type: 'Enabled' as const };
  // A stale "disabled" or "enabled" read before the store became unreadable may have changed since.
  if (status.authority.state === 'unknown') {
    return {
      ...base,
      status: 'Unknown',
      reason: 'StoreUnreadable',
      message: "the store could not be read: the operator's intent may have changed",
      lastTransitionTime: null,
    };
  }
  if (intent === null) return { ...base, status: 'True', reason: 'NoIntent', message: 'no operator has disabled it', lastTransitionTime: null };
  if (intent.disabled)
    return { ...base, status: 'False', reason: 'DisabledByOperator', message: `disabled by ${intent.by}: ${intent.reason}`, lastTransitionTime: intent.at };
  return { ...base, status: 'True', reason: 'EnabledByOperator', message: `enabled by ${intent.by}: ${intent.reason}`, lastTransitionTime: intent.at };
}

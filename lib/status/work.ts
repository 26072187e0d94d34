/**
 * The work axis and the observation gap, judged on the CURRENT epoch's
 * reports only (an older epoch's reports never count for a new leader).
 *
 * Guarantees (docs/design.md, "The status projection"; "older than" is strict >):
 * - silence (report age > gapAfter) → `unknown`, open gap [lastReportAt, now];
 * - no report of the current epoch → `unknown`, gap from acquisition;
 * - an advance with age ≤ stallAfter → `progressing`, even after a gap;
 * - `stalled` only with continuous reports over [now − stallAfter, now]: no
 *   closed break whose end `to` is after now − stallAfter (a break ending
 *   exactly at the window's start leaves the window covered);
 * - nothing in flight and nothing overdue → `idle`; otherwise `unknown`.
 * Missing evidence is never turned into progressing or stalled (docs/design.md, invariant 8).
 * Non-guarantees: continuity is only as good as the store's gap record
 * (`progress.gap` is the most recent closed break, detected with gapAfter).
 */
import { formatAgo, formatClock, formatDuration, formatIn } from './format';
import { gapAfterFor, type Thresholds } from './thresholds';
import { toIso, toMs } from './time';
import type { LeaseFacts, ObservationGap, ProgressFacts, Reason, SchedulerFacts, WorkStatus } from './types';

export interface WorkJudgement {
  work: WorkStatus;
  gap: ObservationGap | null;
  reasons: Reason[];
}

const NO_WORK_FIELDS: Omit<WorkStatus, 'state'> = {
  occurrence: null,
  cursor: null,
  lastAdvanceAt: null,
  lastAdvanceAgeMs: null,
  lastReportAt: null,
  lastReportAgeMs: null,
};

/** Work fields from a progress summary; callers pass only the lease's own epoch. */
export function workFields(progress: ProgressFacts | null, nowMs: number): Omit<WorkStatus, 'state'> {
  if (progress === null) return NO_WORK_FIELDS;
  return {
    occurrence: progress.inFlight,
    cursor: progress.cursor,
    lastAdvanceAt: progress.lastAdvanceAt,
    lastAdvanceAgeMs: nowMs - toMs('progress.lastAdvanceAt', progress.lastAdvanceAt),
    lastReportAt: progress.lastReportAt,
    lastReportAgeMs: nowMs - toMs('progress.lastReportAt', progress.lastReportAt),
  };
}

/** The progress summary if it belongs to the lease's epoch, else null. */
export function currentEpochProgress(facts: SchedulerFacts): ProgressFacts | null {
  const { lease, progress } = facts;
  return lease !== null && progress !== null && progress.epoch === lease.epoch ? progress : null;
}

/** Work while nobody holds the lease: `none`, no gap (no reports are expected). */
export function judgeNoLeader(facts: SchedulerFacts, nowMs: number): WorkJudgement {
  const progress = currentEpochProgress(facts);
  const work: WorkStatus = { state: 'none', ...workFields(progress, nowMs) };
  const reasons: Reason[] = [];
  const lease = facts.lease;
  if (lease !== null && progress !== null && !lease.released) {
    const reportMs = toMs('progress.lastReportAt', progress.lastReportAt);
    if (reportMs > toMs('lease.expiresAt', lease.expiresAt)) {
      reasons.push({
        code: 'reports_after_expiry',
        message: `${lease.holder} (epoch ${lease.epoch}) reported ${formatAgo(nowMs - reportMs)}, after its lease expired; its reports are not progress`,
      });
    }
  }
  return { work, gap: null, reasons };
}

/** Work while `lease` is held. */
export function judgeHeldWork(facts: SchedulerFacts, lease: LeaseFacts, nowMs: number, t: Thresholds): WorkJudgement {
  const progress = facts.progress;
  const now = toIso(nowMs);
  if (progress === null || progress.epoch !== lease.epoch) {
    const older = progress !== null && progress.epoch < lease.epoch;
    const since = `since acquiring ${formatAgo(nowMs - toMs('lease.acquiredAt', lease.acquiredAt))}`;
    const reasons: Reason[] = [
      older
        ? {
            code: 'previous_epoch_only',
            message: `new leader ${lease.holder} (epoch ${lease.epoch}) has not reported yet ${since}; only epoch ${progress.epoch} reported`,
          }
        : { code: 'no_report_yet', message: `${lease.holder} (epoch ${lease.epoch}) has not reported yet ${since}` },
    ];
    if (progress !== null && !older) {
      reasons.push({
        code: 'epoch_mismatch',
        message: `reports of epoch ${progress.epoch} are newer than the lease's epoch ${lease.epoch}: facts read out of order`,
      });
    }
    const reason = older ? 'previous_epoch_only' : 'no_report_yet';
    return { work: { state: 'unknown', ...NO_WORK_FIELDS }, gap: { from: lease.acquiredAt, to: now, reason }, reasons };
  }
  return judgeReports(progress, facts, nowMs, now, t);
}

function judgeReports(p: ProgressFacts, facts: SchedulerFacts, nowMs: number, now: string, t: Thresholds): WorkJudgement {
  const fields = workFields(p, nowMs);
  // Each timestamp is parsed once (workFields): parsing dominates at 10,000 schedulers.
  const reportAge = fields.lastReportAgeMs!;
  const advanceAge = fields.lastAdvanceAgeMs!;
  const gapAfter = gapAfterFor(t, p.reportEveryMs);
  const stall = formatDuration(t.stallAfterMs);
  const what = p.inFlight === null ? 'last advance' : `occurrence ${p.inFlight} last advanced`;
  const done = (state: WorkStatus['state'], gap: ObservationGap | null, ...reasons: Reason[]): WorkJudgement => ({
    work: { state, ...fields },
    gap,
    reasons,
  });

  // 1. Silence: an advance proves progress then, not now.
  if (reportAge > gapAfter) {
    return done(
      'unknown',
      { from: p.lastReportAt, to: now, reason: 'silence' },
      {
        code: 'reports_silent',
        message: `no report for ${formatDuration(reportAge)} > gap threshold ${formatDuration(gapAfter)} (last report at ${formatClock(p.lastReportAt)}, epoch ${p.epoch})`,
      },
    );
  }

  // A closed break ending inside the stall window breaks continuity; it is
  // shown as the observation gap unless an advance since has proven progress.
  const windowStartMs = nowMs - t.stallAfterMs;
  const gapToMs = p.gap === null ? null : toMs('progress.gap.to', p.gap.to);
  const breakInWindow = gapToMs !== null && gapToMs > windowStartMs ? p.gap : null;
  const unproven = breakInWindow !== null && nowMs - advanceAge < gapToMs!;
  const gap: ObservationGap | null = unproven && breakInWindow ? { ...breakInWindow } : null;

  // 2. Progressing: an advance within stallAfter (age ≤ stallAfter).
  if (advanceAge <= t.stallAfterMs) {
    return done('progressing', gap, {
      code: 'work_progressing',
      message: `${what} ${formatAgo(advanceAge)} ≤ stall threshold ${stall}`,
    });
  }

  const overdueMs = facts.due === null ? null : nowMs - toMs('due.dueAt', facts.due.dueAt);
  const overdue = p.inFlight === null && overdueMs !== null && overdueMs > t.overdueAfterMs;

  // 4. Idle: nothing in flight, nothing overdue.
  if (p.inFlight === null && !overdue) {
    const next =
      facts.due === null || overdueMs === null
        ? 'nothing due'
        : overdueMs < 0
          ? `next occurrence ${facts.due.occurrence} due ${formatIn(-overdueMs)}`
          : `occurrence ${facts.due.occurrence} due ${formatAgo(overdueMs)} ≤ overdue threshold ${formatDuration(t.overdueAfterMs)}`;
    return done('idle', gap, { code: 'work_idle', message: `nothing in flight; ${next}` });
  }

  // 3. Stalled needs continuous reports across the whole stall window.
  const problem: Reason =
    p.inFlight !== null
      ? { code: 'work_stalled', message: `${what} ${formatAgo(advanceAge)} > stall threshold ${stall}` }
      : {
          code: 'work_overdue',
          message: `occurrence ${facts.due?.occurrence ?? '?'} due ${formatAgo(overdueMs ?? 0)}, not started > overdue threshold ${formatDuration(t.overdueAfterMs)}`,
        };
  if (breakInWindow !== null) {
    const until = toIso(gapToMs! + t.stallAfterMs);
    return done('unknown', gap, {
      code: 'reports_broken',
      message: `reports missing from ${formatClock(breakInWindow.from)} to ${formatClock(breakInWindow.to)} (${breakInWindow.reason}), no advance since; stall unproven until an advance or ${stall} of continuous reports (${formatClock(until)})`,
    });
  }
  if (gapAfter >= t.stallAfterMs) {
    return done('unknown', gap, problem, {
      code: 'stall_unprovable',
      message: `gap threshold ${formatDuration(gapAfter)} ≥ stall threshold ${stall}: continuous reports over the stall window cannot be proven`,
    });
  }
  return done('stalled', null, {
    ...problem,
    message: `${problem.message}; reports continuous for ${stall} (last report ${formatAgo(reportAge)})`,
  });
}

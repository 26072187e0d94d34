/**
 * The status projection: `project(facts, now, thresholds) → SchedulerStatus`.
 *
 * Guarantees: pure and total over valid input — no clock (`now` is the
 * database time read with the facts), no I/O, same input → same output.
 * Authority comes from the lease, work from the current epoch's reports,
 * health from both plus the operator's intent (docs/design.md, invariants 7–9). An unreadable
 * store makes every state `unknown` with a gap from its last observation.
 * Every status carries reasons: facts with the thresholds that judged them.
 * Throws `StatusInputError` on invalid thresholds, unparseable times or a
 * lease of another scheduler — never guesses around broken input.
 * Non-guarantees: it cannot tell whether the facts were read in one snapshot.
 */
import { judgeAuthority } from './authority';
import { formatAgo, formatClock } from './format';
import { judgeLastRun } from './last-run';
import { deriveHealth } from './health';
import { checkThresholds, DEFAULT_THRESHOLDS, type Thresholds } from './thresholds';
import { nowToMs, StatusInputError, toIso, toMs } from './time';
import { type IntentFacts, NO_LABELS, type Reason, type SchedulerFacts, type SchedulerStatus } from './types';
import { currentEpochProgress, judgeHeldWork, judgeNoLeader, workFields, type WorkJudgement } from './work';

/**
 * @param facts what the status service read for one scheduler
 * @param now   the database time of that read (ISO-8601)
 * @param thresholds defaults to DEFAULT_THRESHOLDS
 */
export function project(facts: SchedulerFacts, now: string, thresholds: Thresholds = DEFAULT_THRESHOLDS): SchedulerStatus {
  const t = checkThresholds(thresholds);
  const nowMs = nowToMs(now);
  if (facts.lease !== null && facts.lease.name !== facts.name) {
    throw new StatusInputError(`lease.name ${JSON.stringify(facts.lease.name)} differs from name ${JSON.stringify(facts.name)}`);
  }

  const { authority, reasons: authorityReasons } = judgeAuthority(facts.store, facts.lease, nowMs, t);
  const judged = judgeWorkAxis(facts, authority.state, nowMs, t);
  const health = deriveHealth(authority.state, judged.work.state, facts.intent);

  const reasons: Reason[] = [];
  if (!facts.store.ok) reasons.push(storeReason(facts, facts.store.lastObservedAt, nowMs));
  if (facts.intent?.disabled === true) reasons.push(intentReason(facts.intent, nowMs));
  reasons.push(...authorityReasons, ...judged.reasons);

  return {
    name: facts.name,
    health,
    authority,
    work: judged.work,
    observation: { gap: judged.gap },
    intent: facts.intent === null ? null : { ...facts.intent },
    reasons,
    lastRun: judgeLastRun(facts, authority.state),
    labels: facts.labels ?? NO_LABELS,
  };
}

function judgeWorkAxis(facts: SchedulerFacts, authority: SchedulerStatus['authority']['state'], nowMs: number, t: Thresholds): WorkJudgement {
  switch (authority) {
    case 'unknown': {
      // Last known work fields stay visible; the state does not.
      if (facts.store.ok) throw new StatusInputError('authority unknown although the store was read');
      const gap = { from: facts.store.lastObservedAt, to: toIso(nowMs), reason: 'store_unreadable' as const };
      return { work: { state: 'unknown', ...workFields(currentEpochProgress(facts), nowMs) }, gap, reasons: [] };
    }
    case 'none':
    case 'expired':
    case 'released':
      return judgeNoLeader(facts, nowMs);
    case 'held':
      if (facts.lease === null) throw new StatusInputError('authority held without a lease');
      return judgeHeldWork(facts, facts.lease, nowMs, t);
    default: {
      const never: never = authority;
      return never;
    }
  }
}

function storeReason(facts: SchedulerFacts, lastObservedAt: string, nowMs: number): Reason {
  const age = formatAgo(nowMs - toMs('store.lastObservedAt', lastObservedAt));
  const last = facts.lease === null ? 'no lease' : `holder ${facts.lease.holder}, epoch ${facts.lease.epoch}`;
  return {
    code: 'store_unreadable',
    message: `${facts.store.ok === false && facts.store.why === 'standby_behind' ? 'answered by a standby too far behind' : 'status store unreadable'}; last observed at ${formatClock(lastObservedAt)} (${age}, ${last}); every state unknown`,
  };
}

function intentReason(intent: IntentFacts, nowMs: number): Reason {
  const age = formatAgo(nowMs - toMs('intent.at', intent.at));
  return { code: 'intent_disabled', message: `disabled by ${intent.by} ${age}: ${intent.reason}` };
}

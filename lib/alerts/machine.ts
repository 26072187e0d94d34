/**
 * The alert state machine, with Prometheus' meanings of `for` and
 * `keepFiringFor` (rules/alerting.go), so SREs recognise them:
 *
 *   inactive ─true→ pending(activeAt) ─true, now−activeAt ≥ for→ firing(firedAt)
 *   pending ─false→ inactive            (with for = 0, true fires at once)
 *   firing ─false→ resolved             (keepFiringFor = 0)
 *   firing ─false→ firing(keepFiringSince = first false) … until now − keepFiringSince ≥ keepFiringFor → resolved
 *   firing ─true→ firing(keepFiringSince = null)
 *   resolved ─true→ pending(activeAt = now)   (a new activation, as Prometheus does)
 *   resolved ─(resolvedRetention passed)→ inactive
 *   any ─unknown→ the same state, clocks held (unknown neither fires nor resolves)
 *
 * Guarantees: pure and total; `now` is injected (the database time of the
 * status read being judged); boundaries as Prometheus: `for` and
 * `keepFiringFor` are inclusive (`≥`), retention is strict (`>`).
 * Non-guarantees: modes and delivery are ./step.ts's business.
 */
import { isSchedulerAlert, judgeScheduler, judgeService } from './catalogue';
import type { AlertConfig, RuleTiming } from './config';
import { nowToMs, toMs } from '../status/time';
import type { AlertName, AlertPhase, AlertState, Condition, SchedulerEvidence, ServiceEvidence } from './types';

export const INACTIVE: AlertState = Object.freeze({ kind: 'inactive' });

/** How long a resolved alert is kept (and re-sent) before it is forgotten. */
export interface MachineTiming extends RuleTiming {
  resolvedRetentionMs: number;
}

function activate(timing: RuleTiming, now: string): AlertState {
  return timing.forMs <= 0 ? { kind: 'firing', activeAt: now, firedAt: now, keepFiringSince: null } : { kind: 'pending', activeAt: now };
}

/** One evaluation of one alert: the next state given the condition at `now`. */
export function advance(timing: MachineTiming, condition: Condition, previous: AlertState, now: string): AlertState {
  const nowMs = nowToMs(now);
  switch (previous.kind) {
    case 'inactive':
      return condition === 'true' ? activate(timing, now) : previous;
    case 'pending':
      if (condition === 'unknown') return previous;
      if (condition === 'false') return INACTIVE;
      return nowMs - toMs('activeAt', previous.activeAt) >= timing.forMs
        ? { kind: 'firing', activeAt: previous.activeAt, firedAt: now, keepFiringSince: null }
        : previous;
    case 'firing':
      if (condition === 'unknown') return previous;
      if (condition === 'true') return previous.keepFiringSince === null ? previous : { ...previous, keepFiringSince: null };
      if (timing.keepFiringForMs > 0) {
        const since = previous.keepFiringSince ?? now;
        if (nowMs - toMs('keepFiringSince', since) < timing.keepFiringForMs) {
          return since === previous.keepFiringSince ? previous : { ...previous, keepFiringSince: since };
        }
      }
      return { kind: 'resolved', activeAt: previous.activeAt, firedAt: previous.firedAt, resolvedAt: now };
    case 'resolved':
      if (condition === 'true') return activate(timing, now);
      return nowMs - toMs('resolvedAt', previous.resolvedAt) > timing.resolvedRetentionMs ? INACTIVE : previous;
    default: {
      const never: never = previous;
      return never;
    }
  }
}

export type Evidence = { scope: 'scheduler'; evidence: SchedulerEvidence } | { scope: 'service'; evidence: ServiceEvidence };

/** The condition of rule `name` on `evidence` at `now`; a scheduler rule on service evidence (or the reverse) is a programming error. */
function judge(name: AlertName, input: Evidence, now: string, config: Pick<AlertConfig, 'rejectionWindowMs'>): Condition {
  if (isSchedulerAlert(name)) {
    if (input.scope !== 'scheduler') throw new TypeError(`alerts: ${name} judges a scheduler, got service evidence`);
    return judgeScheduler(name, input.evidence, nowToMs(now), config.rejectionWindowMs);
  }
  if (input.scope !== 'service') throw new TypeError(`alerts: ${name} judges the service, got scheduler evidence`);
  return judgeService(name, input.evidence);
}

/**
 * `evaluate(rule, evidence, previous, now)`: judge the rule's condition on
 * the projection's answer and advance its state.
 */
export function evaluate(
  rule: AlertName,
  input: Evidence,
  previous: AlertState,
  now: string,
  config: Pick<AlertConfig, 'rejectionWindowMs' | 'resolvedRetentionMs' | 'timings'>,
): AlertState {
  const condition = judge(rule, input, now, config);
  return advance({ ...config.timings[rule], resolvedRetentionMs: config.resolvedRetentionMs }, condition, previous, now);
}

/** The phase Prometheus would report (and the golden cases expect). */
export function phase(state: AlertState): AlertPhase {
  switch (state.kind) {
    case 'inactive':
    case 'resolved':
      return 'inactive';
    case 'pending':
      return 'pending';
    case 'firing':
      return 'firing';
    default: {
      const never: never = state;
      return never;
    }
  }
}

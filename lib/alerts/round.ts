/**
 * One evaluator round: every rule over every scheduler (and the service
 * rules once), from the previous records to the next ones, the transitions
 * to record and the alerts to send.
 *
 * Guarantees: pure; `now` is the database time of the status read judged;
 * `schedulers` holds each scheduler once (a list read's names are unique).
 * - Records are sparse: an absent key is inactive with nothing sent, so a
 *   round costs little for the (many) healthy schedulers.
 * - A scheduler with a record but absent from this round's statuses (a
 *   partial read) is judged `unknown`: held, never resolved by omission.
 * - Modes are resolved per alert (override → rule → `shadow`); `off` rules
 *   are not evaluated. A scheduler in a maintenance window (`suppressed`)
 *   has its `on` alerts run as `shadow`: judged and recorded as ever, never
 *   delivered, and withdrawn from Alertmanager if they were firing there
 *   (./step.ts); at the first round after the window closes they are `on`
 *   again and a firing one is sent at once.
 * Non-guarantees: no I/O and no fencing — the caller (the evaluator job)
 * stores records and transitions with its epoch and hands `outgoing` to the
 * delivery outbox.
 */
import { nowToMs } from '../status/time';
import { SCHEDULER_ALERT_NAMES, SERVICE_ALERT_NAMES, isAlertName, isSchedulerAlert, judgeScheduler, judgeService } from './catalogue';
import type { AlertConfig } from './config';
import type { MachineTiming } from './machine';
import { resolveMode, type ModeTable } from './modes';
import { alertKey, alertmanagerAlert, schedulerSummary, serviceSummary } from './payload';
import { stepAlert, type StepClock, type StepResult } from './step';
import type {
  AlertMode,
  AlertName,
  AlertRecord,
  AlertStateKind,
  Condition,
  OutgoingAlert,
  Routing,
  SchedulerEvidence,
  ServiceEvidence,
  Suppression,
} from './types';

export interface RoundInput {
  now: string;
  service: ServiceEvidence;
  schedulers: readonly SchedulerEvidence[];
  modes: ModeTable;
  /** Keyed by `alertKey(rule, scheduler)`. */
  previous: ReadonlyMap<string, AlertRecord>;
  config: AlertConfig;
  /** Schedulers in an open maintenance window: their alerts run as in `shadow` (evaluated, shown, not delivered). */
  suppressed?: ReadonlyMap<string, Suppression>;
  /** Schedulers with a team: their alerts carry it (label) and its owner's contact and runbook (annotations). */
  routing?: ReadonlyMap<string, Routing>;
}

export interface AlertTransition {
  rule: AlertName;
  scheduler: string | null;
  from: AlertStateKind;
  to: AlertStateKind;
  at: string;
  mode: AlertMode;
}

export interface RoundResult {
  records: Map<string, AlertRecord>;
  transitions: AlertTransition[];
  outgoing: OutgoingAlert[];
}

/** `SchedulerStalled/nightly-export` → its rule and scheduler (null for service alerts); null for a key of no known rule. */
export function parseAlertKey(key: string): { rule: AlertName; scheduler: string | null } | null {
  const slash = key.indexOf('/');
  const rule = slash < 0 ? key : key.slice(0, slash);
  if (!isAlertName(rule)) return null;
  const scheduler = slash < 0 ? null : key.slice(slash + 1);
  return isSchedulerAlert(rule) === (scheduler !== null) ? { rule, scheduler } : null;
}

/** Previous records by rule, then scheduler (service rules under scheduler ''); keys of rules no longer in the catalogue are dropped. */
function indexByRule(previous: ReadonlyMap<string, AlertRecord>): Map<AlertName, Map<string, AlertRecord>> {
  const byRule = new Map<AlertName, Map<string, AlertRecord>>();
  for (const [key, record] of previous) {
    const parsed = parseAlertKey(key);
    if (parsed === null) continue;
    let perRule = byRule.get(parsed.rule);
    if (!perRule) byRule.set(parsed.rule, (perRule = new Map()));
    perRule.set(parsed.scheduler ?? '', record);
  }
  return byRule;
}

export function evaluateRound(input: RoundInput): RoundResult {
  const { now, config, modes, previous } = input;
  const nowMs = nowToMs(now);
  const clock: StepClock = { now, resendEveryMs: config.resendEveryMs, evaluateEveryMs: config.evaluateEveryMs };
  const timing = (rule: AlertName): MachineTiming => ({ ...config.timings[rule], resolvedRetentionMs: config.resolvedRetentionMs });
  const result: RoundResult = { records: new Map(), transitions: [], outgoing: [] };
  // What is left in here after the loops had no evidence this round.
  const unseen = indexByRule(previous);

  const record = (rule: AlertName, scheduler: string | null, mode: AlertMode, step: StepResult, before: AlertRecord | undefined) => {
    const key = alertKey(rule, scheduler);
    if (step.record) result.records.set(key, step.record);
    if (step.transition) result.transitions.push({ rule, scheduler, ...step.transition, at: now, mode });
    if (step.send) {
      const summary = step.record?.summary ?? before?.summary ?? rule;
      const routed = scheduler === null ? null : (routing.get(scheduler) ?? null);
      result.outgoing.push({ key, alert: alertmanagerAlert(rule, scheduler, summary, step.send, config.externalUrl, routed), sentAt: now });
    }
  };
  const held = () => '';
  const suppressed = input.suppressed ?? new Map<string, Suppression>();
  const routing = input.routing ?? new Map<string, Routing>();
  // A window never turns an alert on, nor off: it only keeps an `on` one from being delivered.
  const inForce = (mode: AlertMode, scheduler: string): AlertMode => (mode === 'on' && suppressed.has(scheduler) ? 'shadow' : mode);

  for (const rule of SCHEDULER_ALERT_NAMES) {
    const t = timing(rule);
    const ruleOnly = modes.overrides.get(rule) === undefined ? resolveMode(modes, rule, null).mode : null;
    const prevOf = unseen.get(rule);
    for (const e of input.schedulers) {
      const prev = prevOf?.get(e.scheduler);
      if (prev) prevOf!.delete(e.scheduler);
      const mode = inForce(ruleOnly ?? resolveMode(modes, rule, e.scheduler).mode, e.scheduler);
      const condition: Condition = mode === 'off' ? 'false' : judgeScheduler(rule, e, nowMs, config.rejectionWindowMs);
      // Fast path: nothing to remember and nothing starts.
      if (!prev && condition !== 'true') continue;
      record(
        rule,
        e.scheduler,
        mode,
        stepAlert(t, mode, condition, prev, () => schedulerSummary(rule, e, now), clock),
        prev,
      );
    }
  }

  for (const rule of SERVICE_ALERT_NAMES) {
    const prev = unseen.get(rule)?.get('');
    unseen.delete(rule);
    const mode = resolveMode(modes, rule, null).mode;
    const condition = mode === 'off' ? 'false' : judgeService(rule, input.service);
    if (!prev && condition !== 'true') continue;
    record(
      rule,
      null,
      mode,
      stepAlert(timing(rule), mode, condition, prev, () => serviceSummary(rule, input.service), clock),
      prev,
    );
  }

  // Schedulers with a record that this round did not see (a partial read): no evidence, held.
  for (const [rule, perScheduler] of unseen) {
    for (const [scheduler, prev] of perScheduler) {
      const mode = inForce(resolveMode(modes, rule, scheduler).mode, scheduler);
      record(rule, scheduler, mode, stepAlert(timing(rule), mode, 'unknown', prev, held, clock), prev);
    }
  }
  return result;
}

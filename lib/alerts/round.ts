/**
 * One evaluator round: every rule over every scheduler (and the service
 * rules once), from the previous records to the next ones, the transitions
 * to record and the alerts to send.
 *
 * Guarantees: pure; `now` is the database time of the status read judged.
 * - Records are sparse: an absent key is inactive with nothing sent, so a
 *   round costs little for the (many) healthy schedulers.
 * - A scheduler with a record but absent from this round's statuses (a
 *   partial read) is judged `unknown`: held, never resolved by omission.
 * - Modes are resolved per alert (override → rule → `shadow`); `off` rules
 *   are not evaluated.
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
import type { AlertMode, AlertName, AlertRecord, AlertStateKind, Condition, OutgoingAlert, SchedulerEvidence, ServiceEvidence } from './types';

export interface RoundInput {
  now: string;
  service: ServiceEvidence;
  schedulers: readonly SchedulerEvidence[];
  modes: ModeTable;
  /** Keyed by `alertKey(rule, scheduler)`. */
  previous: ReadonlyMap<string, AlertRecord>;
  config: AlertConfig;
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

/** `SchedulerStalled/retention-planner` → its rule and scheduler (null for service alerts); null for a key of no known rule. */
export function parseAlertKey(key: string): { rule: AlertName; scheduler: string | null } | null {
  const slash = key.indexOf('/');
  const rule = slash < 0 ? key : key.slice(0, slash);
  if (!isAlertName(rule)) return null;
  const scheduler = slash < 0 ? null : key.slice(slash + 1);
  return isSchedulerAlert(rule) === (scheduler !== null) ? { rule, scheduler } : null;
}

export function evaluateRound(input: RoundInput): RoundResult {
  const { now, config, modes, previous } = input;
  const nowMs = nowToMs(now);
  const clock: StepClock = { now, resendEveryMs: config.resendEveryMs, evaluateEveryMs: config.evaluateEveryMs };
  const timing = (rule: AlertName): MachineTiming => ({ ...config.timings[rule], resolvedRetentionMs: config.resolvedRetentionMs });
  const result: RoundResult = { records: new Map(), transitions: [], outgoing: [] };
  const visited = new Set<string>();

  const record = (rule: AlertName, scheduler: string | null, mode: AlertMode, key: string, step: StepResult, summaryNow: string | null) => {
    if (step.record) result.records.set(key, step.record);
    if (step.transition) result.transitions.push({ rule, scheduler, ...step.transition, at: now, mode });
    if (step.send) {
      const summary = summaryNow ?? step.record?.summary ?? previous.get(key)?.summary ?? rule;
      result.outgoing.push({ key, alert: alertmanagerAlert(rule, scheduler, summary, step.send, config.externalUrl) });
    }
  };

  for (const rule of SCHEDULER_ALERT_NAMES) {
    const t = timing(rule);
    const ruleOnly = modes.overrides.get(rule) === undefined ? resolveMode(modes, rule, null).mode : null;
    for (const e of input.schedulers) {
      const key = alertKey(rule, e.scheduler);
      const prev = previous.get(key);
      if (prev) visited.add(key);
      const mode = ruleOnly ?? resolveMode(modes, rule, e.scheduler).mode;
      const condition: Condition = mode === 'off' ? 'false' : judgeScheduler(rule, e, nowMs, config.rejectionWindowMs);
      // Fast path: nothing to remember and nothing starts.
      if (!prev && condition !== 'true') continue;
      const summary = condition === 'true' ? schedulerSummary(rule, e, now) : null;
      record(rule, e.scheduler, mode, key, stepAlert(t, mode, condition, prev, summary, clock), summary);
    }
  }

  for (const rule of SERVICE_ALERT_NAMES) {
    const key = alertKey(rule, null);
    const prev = previous.get(key);
    if (prev) visited.add(key);
    const mode = resolveMode(modes, rule, null).mode;
    const condition = mode === 'off' ? 'false' : judgeService(rule, input.service);
    if (!prev && condition !== 'true') continue;
    const summary = condition === 'true' ? serviceSummary(rule, input.service) : null;
    record(rule, null, mode, key, stepAlert(timing(rule), mode, condition, prev, summary, clock), summary);
  }

  // Schedulers with a record that this round did not see: no evidence, held.
  for (const [key, prev] of previous) {
    if (visited.has(key)) continue;
    const parsed = parseAlertKey(key);
    if (parsed === null) continue; // a rule no longer in the catalogue: forgotten
    const { rule, scheduler } = parsed;
    const mode = resolveMode(modes, rule, scheduler).mode;
    record(rule, scheduler, mode, key, stepAlert(timing(rule), mode, 'unknown', prev, null, clock), null);
  }
  return result;
}

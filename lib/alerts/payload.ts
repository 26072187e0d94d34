/**
 * What an alert says to Alertmanager: labels, annotations, times and links.
 *
 * Guarantees: pure. Labels are exactly `alertname`, `severity` and, for
 * scheduler rules, `scheduler` (the lease name) and `team` (its `team` label,
 * when it has one: what Alertmanager routes by) — never holder tokens, hosts
 * or IDs, so one alert keeps one identity across takeovers (a scheduler that
 * changes team starts a new alert; the old one lapses at its `endsAt`). The
 * team owner's contact and runbook travel as annotations. The `summary`
 * comes from the status's own reasons (the facts and thresholds that judged
 * it), bounded in length. `generatorURL` is the scheduler page `?at=` the
 * moment the alert started firing (the overview for service alerts).
 * Non-guarantees: annotation text is for people; match on labels.
 */
import { formatAgo, formatClock } from '../status/format';
import { nowToMs, toMs } from '../status/time';
import type { ReasonCode } from '../status/types';
import { isSchedulerAlert, ruleInfo } from './catalogue';
import { overviewUrl, runbookUrl, schedulerPageUrl } from './links';
import type { AlertmanagerAlert, AlertName, Routing, SchedulerEvidence, ServiceEvidence } from './types';

/** Longest summary sent (characters). */
const SUMMARY_MAX = 1_000;

/** Key of one alert: rule names never contain `/`, so the first `/` separates. */
export function alertKey(rule: AlertName, scheduler: string | null): string {
  return scheduler === null ? rule : `${rule}/${scheduler}`;
}

function alertLabels(rule: AlertName, scheduler: string | null, routing: Routing | null): Record<string, string> {
  const severity = ruleInfo(rule).severity;
  if (scheduler === null) return { alertname: rule, severity };
  return routing === null ? { alertname: rule, scheduler, severity } : { alertname: rule, scheduler, severity, team: routing.team };
}

function routingAnnotations(routing: Routing | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (routing?.contact != null) out.contact = routing.contact;
  if (routing?.runbook != null) out.runbook = routing.runbook;
  return out;
}

function relevantCodes(rule: AlertName): readonly ReasonCode[] {
  switch (rule) {
    case 'SchedulerStalled':
      return ['work_stalled', 'work_overdue'];
    case 'SchedulerNoLeader':
      return ['authority_none', 'authority_expired', 'authority_released'];
    case 'SchedulerUnknown':
      return [
        'reports_silent',
        'reports_broken',
        'no_report_yet',
        'previous_epoch_only',
        'stall_unprovable',
        'epoch_mismatch',
        'reports_after_expiry',
        'store_unreadable',
      ];
    case 'LeaseRenewalAtRisk':
      return ['renewal_at_risk'];
    case 'StaleWritesRejected':
    case 'StatusStoreUnreadable':
    case 'Watchdog':
      return [];
    default: {
      const never: never = rule;
      return never;
    }
  }
}

function bounded(text: string): string {
  return text.length <= SUMMARY_MAX ? text : `${text.slice(0, SUMMARY_MAX - 1)}…`;
}

/** "nightly-export: occurrence … last advanced 11 min ago > stall threshold 5 min". */
export function schedulerSummary(rule: AlertName, e: SchedulerEvidence, now: string): string {
  if (rule === 'StaleWritesRejected' && e.lastRejectionAt !== null) {
    const age = nowToMs(now) - toMs('lastRejectionAt', e.lastRejectionAt);
    return bounded(`${e.scheduler}: the fence rejected a stale write at ${formatClock(e.lastRejectionAt)} (${formatAgo(age)})`);
  }
  const codes = relevantCodes(rule);
  const own = e.reasons.filter((r) => codes.includes(r.code));
  const messages = (own.length > 0 ? own : e.reasons).map((r) => r.message);
  return bounded(`${e.scheduler}: ${messages.length > 0 ? messages.join('; ') : `health ${e.health}`}`);
}

export function serviceSummary(rule: AlertName, e: ServiceEvidence): string {
  if (rule === 'Watchdog') return 'the alert pipeline is alive: this alert always fires';
  if (e.storeReadable) return 'the status store is readable';
  return e.lastObservedAt === null
    ? 'the status store cannot be read, and never has been; every scheduler reads unknown'
    : `the status store cannot be read since ${formatClock(e.lastObservedAt)}; every scheduler reads unknown`;
}

export interface AlertTimes {
  startsAt: string;
  endsAt: string;
  /** When the alert started firing: the `?at=` of the generatorURL. */
  firedAt: string;
}

/**
 * The Alertmanager v2 alert for `rule` (on `scheduler`, for scheduler rules). `routing`: the
 * scheduler's team (label `team`) and its owner's contact and runbook (annotations), when it has a team.
 */
export function alertmanagerAlert(
  rule: AlertName,
  scheduler: string | null,
  summary: string,
  times: AlertTimes,
  externalUrl: string,
  routing: Routing | null = null,
): AlertmanagerAlert {
  const onScheduler = scheduler !== null && isSchedulerAlert(rule);
  const dashboard = onScheduler ? schedulerPageUrl(externalUrl, scheduler) : overviewUrl(externalUrl);
  const routed = onScheduler ? routing : null;
  return {
    labels: alertLabels(rule, onScheduler ? scheduler : null, routed),
    annotations: { summary, runbook_url: runbookUrl(externalUrl, rule), dashboard, ...routingAnnotations(routed) },
    startsAt: times.startsAt,
    endsAt: times.endsAt,
    generatorURL: onScheduler ? schedulerPageUrl(externalUrl, scheduler, times.firedAt) : dashboard,
  };
}

/**
 * The Prometheus rule file equivalent to lib/alerts, over the series of
 * `GET /api/metrics` (lib/server/metrics.ts): same alert names, `for`,
 * `keep_firing_for`, labels (`alertname`, `scheduler`, `severity`) and
 * runbook links. For teams that alert from Prometheus instead of (or beside)
 * the evaluator job.
 *
 * Guarantees: pure; one expression per rule, aggregated `by (scheduler)` so
 * scrape labels (job, instance) and the `health` label never split an
 * alert's identity. How each rule keeps the evaluator's meaning:
 * - unknown never fires a rule but SchedulerUnknown: conditions read the
 *   health gauge, which is 0 for every other health while unknown;
 * - unknown never resolves a FIRING alert: `or (unknown and ALERTS{firing})`
 *   keeps the condition true while the scheduler is unknown and the alert
 *   already fires;
 * - an unreadable store: `leaseboard_observation_ok` is 0, every health is
 *   unknown, so every SchedulerUnknown fires — the shipped Alertmanager
 *   inhibit rule (docs/alertmanager) silences them under StatusStoreUnreadable.
 * Non-guarantees (PromQL cannot say these; ./rule-tests.ts names the golden
 * cases they affect): a PENDING alert is dropped (not held) by unknown
 * evidence, so `for` restarts; a `keep_firing_for` clock is restarted (not
 * held) by unknown evidence; there are no modes (a rule is in the file or
 * not; route `severity` in Alertmanager for shadow-like rollout); the
 * `generatorURL` is Prometheus' own graph link (the `dashboard` annotation
 * links the scheduler page, but templates cannot give `?at=` the firing
 * moment). `StaleWritesRejected` reads `leaseboard_scheduler_last_stale_write_rejection_age_seconds`,
 * which /api/metrics must export (seconds since the newest rejection of the
 * lease within retention; absent when there is none or the store is unreadable).
 */
import { ALERT_NAMES, isSchedulerAlert, ruleInfo } from '../catalogue';
import type { AlertConfig } from '../config';
import { overviewUrl, runbookUrl } from '../links';
import type { AlertName } from '../types';
import type { YamlValue } from '../yaml';
import { promDuration } from './duration';

export const METRIC = Object.freeze({
  health: 'leaseboard_scheduler_health',
  atRisk: 'leaseboard_scheduler_renewal_at_risk',
  observationOk: 'leaseboard_observation_ok',
  staleWriteAge: 'leaseboard_scheduler_last_stale_write_rejection_age_seconds',
});

const byScheduler = (selector: string) => `max by (scheduler) (${selector})`;
const health = (h: string) => `${METRIC.health}{health="${h}"} == 1`;

/** True while the scheduler is unknown AND this alert already fires: unknown never resolves it. */
function holdFiring(rule: AlertName): string {
  return `(\n  ${byScheduler(health('unknown'))}\n    and on (scheduler) ALERTS{alertname="${rule}", alertstate="firing"}\n)`;
}

export function promExpr(rule: AlertName, config: Pick<AlertConfig, 'rejectionWindowMs'>): string {
  switch (rule) {
    case 'SchedulerStalled':
      return `${byScheduler(health('stalled'))}\nor\n${holdFiring(rule)}`;
    case 'SchedulerNoLeader':
      return `${byScheduler(health('no_leader'))}\nor\n${holdFiring(rule)}`;
    case 'SchedulerUnknown':
      return byScheduler(health('unknown'));
    case 'LeaseRenewalAtRisk':
      return `(\n  ${byScheduler(`${METRIC.atRisk} == 1`)}\n    unless on (scheduler) ${health('unknown')}\n)\nor\n${holdFiring(rule)}`;
    case 'StaleWritesRejected':
      return byScheduler(`${METRIC.staleWriteAge} <= ${config.rejectionWindowMs / 1000}`);
    case 'StatusStoreUnreadable':
      return `min(${METRIC.observationOk}) == 0`;
    case 'Watchdog':
      return 'vector(1)';
    default: {
      const never: never = rule;
      return never;
    }
  }
}

/** How an annotation names the scheduler: a template in the rule file, a literal in promtool's expectations. */
export interface SchedulerRef {
  /** In text: `{{ $labels.scheduler }}`. */
  text: string;
  /** In a URL path: `{{ $labels.scheduler | urlquery }}`. */
  url: string;
}

const TEMPLATE_REF: SchedulerRef = Object.freeze({ text: '{{ $labels.scheduler }}', url: '{{ $labels.scheduler | urlquery }}' });

export function promAnnotations(rule: AlertName, externalUrl: string, scheduler: SchedulerRef): Record<string, string> {
  const { fires } = ruleInfo(rule);
  if (!isSchedulerAlert(rule)) {
    return { summary: `${fires[0]!.toUpperCase()}${fires.slice(1)}`, runbook_url: runbookUrl(externalUrl, rule), dashboard: overviewUrl(externalUrl) };
  }
  return {
    summary: `${scheduler.text}: ${fires}`,
    runbook_url: runbookUrl(externalUrl, rule),
    dashboard: `${externalUrl}/schedulers/${scheduler.url}`,
  };
}

export function promRule(rule: AlertName, config: AlertConfig): YamlValue {
  const { forMs, keepFiringForMs } = config.timings[rule];
  return {
    alert: rule,
    expr: promExpr(rule, config),
    for: promDuration(forMs),
    keep_firing_for: keepFiringForMs > 0 ? promDuration(keepFiringForMs) : undefined,
    labels: { severity: ruleInfo(rule).severity },
    annotations: promAnnotations(rule, config.externalUrl, TEMPLATE_REF),
  };
}

export function promRuleFile(config: AlertConfig, rules: readonly AlertName[] = ALERT_NAMES): YamlValue {
  return { groups: [{ name: 'leaseboard', rules: rules.map((r) => promRule(r, config)) }] };
}

export const RULE_FILE_HEADER = `Leaseboard alert rules over GET /api/metrics — generated by \`npm run alerts -- rules\`
(lib/alerts/prometheus/rules.ts) from the environment's alert settings; regenerate rather
than edit. The copy in docs/prometheus uses the defaults: set LEASEBOARD_EXTERNAL_URL to
your dashboard's URL so that runbook and dashboard links point at it.
Same names, for, keep_firing_for, labels and runbooks as the evaluator job. Where PromQL
cannot say what the evaluator does (pending alerts held through unknown evidence, modes,
generatorURL ?at=), see the module header. Load docs/alertmanager/alertmanager.yml's
inhibit rule with it: StatusStoreUnreadable stands for every SchedulerUnknown.`;

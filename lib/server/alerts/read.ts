/**
 * GET /api/v1/alerts: every rule with its mode and counts, the per-scheduler
 * overrides, the alerts that are not inactive (worst first, at most
 * `limit`), and the delivering evaluator's view of each Alertmanager.
 *
 * Guarantees: six small statements (the database's now, alert_state,
 * alert_modes, alert_delivery, the maintenance windows and the labels of the
 * schedulers with alerts — all bounded by rules × schedulers, configuration
 * or the windows' cap); an alert whose scheduler an open window covers says
 * so (`suppressedBy`) and counts with shadow (not delivered); counts are over ALL alerts, before the limit; modes in
 * force resolve as the evaluator resolves them; ids only for Alertmanagers
 * (`alertmanager-N`), the URL of the first one only for UI links.
 * Non-guarantees: one snapshot across the four (only the evaluator writes
 * state and delivery; an alert may move between the reads).
 */
import type { AlertEntry, AlertsResponse } from '../../api/types';
import { ALERT_NAMES, isSchedulerAlert, resolveMode, ruleInfo, modeTable } from '../../alerts';
import { readDeliveryTargets } from '../../alerts/store/delivery';
import { readModeRows } from '../../alerts/store/modes';
import { readStoredAlerts } from '../../alerts/store/state';
import { maintenanceAt, readLabelsOf, readLiveWindows } from '../../alerts/store/maintenance';
import { toIso } from '../../status/time';
import { dbNowMs, type Queryable } from '../live/facts';
import { liveAlert } from './view';

export const ALERTS_LIMIT_DEFAULT = 500;
export const ALERTS_LIMIT_MAX = 2_000;

type Counts = AlertsResponse['counts'];
const zero = (): Counts => ({ firing: 0, pending: 0, shadow: 0 });

function count(counts: Counts, alert: AlertEntry): void {
  if (alert.state === 'resolved' || alert.mode === 'off') return;
  if (alert.mode === 'shadow' || alert.suppressedBy !== null) counts.shadow += 1;
  else counts[alert.state] += 1;
}

const STATE_ORDER = { firing: 0, pending: 1, resolved: 2 } as const;
const MODE_ORDER = { on: 0, shadow: 1, off: 2 } as const;
const SEVERITY_ORDER = { critical: 0, warning: 1, none: 2 } as const;

function worstFirst(a: AlertEntry, b: AlertEntry): number {
  return (
    STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
    MODE_ORDER[a.mode] - MODE_ORDER[b.mode] ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    (a.since < b.since ? -1 : a.since > b.since ? 1 : 0) ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
    ((a.scheduler ?? '') < (b.scheduler ?? '') ? -1 : 1)
  );
}

export async function readAlerts(db: Queryable, options: { limit: number; alertmanagerUrl: string | null }): Promise<{ nowMs: number; body: AlertsResponse }> {
  const nowMs = await dbNowMs(db);
  const stored = await readStoredAlerts(db);
  const modeRows = await readModeRows(db);
  const targets = await readDeliveryTargets(db);
  const modes = modeTable(modeRows);
  // Why an `on` alert is not delivered: the window covering its scheduler, judged as the evaluator judges it.
  const maintenance = maintenanceAt(await readLiveWindows(db), nowMs);
  const labels = await readLabelsOf(db, [...new Set(stored.flatMap((a) => (a.scheduler === null ? [] : [a.scheduler])))]);
  const suppression = (scheduler: string | null, mode: AlertEntry['mode']) =>
    scheduler === null || mode !== 'on' ? null : maintenance.of(scheduler, labels.get(scheduler) ?? {});

  const counts = zero();
  const perRule = new Map(ALERT_NAMES.map((rule) => [rule, zero()]));
  const alerts: AlertEntry[] = [];
  for (const a of stored) {
    const view = liveAlert(a, modes, options.alertmanagerUrl);
    if (view === null) continue;
    const entry: AlertEntry = { ...view, scheduler: a.scheduler, severity: ruleInfo(a.rule).severity, suppressedBy: suppression(a.scheduler, view.mode) };
    count(counts, entry);
    count(perRule.get(a.rule)!, entry);
    alerts.push(entry);
  }
  alerts.sort(worstFirst);
  const body: AlertsResponse = {
    observedAt: toIso(Math.floor(nowMs)),
    counts,
    rules: ALERT_NAMES.map((rule) => {
      const resolved = resolveMode(modes, rule, null);
      return {
        rule,
        severity: ruleInfo(rule).severity,
        scope: isSchedulerAlert(rule) ? ('scheduler' as const) : ('service' as const),
        mode: resolved.mode,
        setting: resolved.setting,
        counts: perRule.get(rule)!,
      };
    }),
    overrides: modeRows
      .filter((row): row is typeof row & { scheduler: string } => row.scheduler !== null)
      .sort((a, b) => (a.rule === b.rule ? (a.scheduler < b.scheduler ? -1 : 1) : a.rule < b.rule ? -1 : 1))
      .slice(0, options.limit)
      .map(({ rule, scheduler, mode, by, reason, at }) => ({ rule, scheduler, mode, by, reason, at })),
    alerts: alerts.slice(0, options.limit),
    total: alerts.length,
    delivery: {
      alertmanagerUrl: options.alertmanagerUrl,
      targets: targets.map((t) => ({
        id: t.id,
        queueDepth: t.queueDepth,
        consecutiveFailures: t.consecutiveFailures,
        lastError: t.lastError,
        lastSuccessAt: t.lastSuccessAgeMs === null ? null : toIso(Date.parse(t.observedAt) - t.lastSuccessAgeMs),
        nextAttemptInMs: t.nextAttemptInMs,
        sentAlerts: t.sentAlerts,
        observedAt: t.observedAt,
      })),
    },
  };
  return { nowMs, body };
}

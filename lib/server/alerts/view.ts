/**
 * Alerts as the API shows them: a stored alert (alert_state) with the mode
 * in force, what was delivered and a link to silence it; or, as of an
 * instant, rebuilt from the transitions log (alert_events): which alerts
 * were pending or firing then, and the spans they were so.
 *
 * Guarantees: pure. Modes resolve as the evaluator resolves them
 * (lib/alerts `resolveMode`); "delivered" means an Alertmanager accepted the
 * alert's latest send; as of an instant, an alert is what its last
 * transition at or before that instant made it, so a rebuilt answer agrees
 * with what the evaluator had stored then.
 * Non-guarantees: a transition log pruned by retention rebuilds nothing
 * before its horizon (the as-of read refuses such instants anyway).
 */
import type { AlertSpan, SchedulerAlert } from '../../api/types';
import { isAlertName, resolveMode, silenceFormUrl, type AlertMode, type AlertName, type ModeTable } from '../../alerts';
import type { StoredAlert } from '../../alerts/store/state';
import { toIso } from '../../status/time';

/** One alert_events row, as the logs read returns it. */
export interface AlertEventLog {
  id: number;
  rule: string;
  from_state: string;
  to_state: string;
  mode: AlertMode;
  at_ms: number;
}

/** The live view of a stored alert; null while it is inactive (kept only until Alertmanager lets go of it). */
export function liveAlert(a: StoredAlert, modes: ModeTable, alertmanagerUrl: string | null): SchedulerAlert | null {
  const s = a.record.state;
  if (s.kind === 'inactive') return null;
  const sent = a.record.sent;
  const since = s.kind === 'pending' ? s.activeAt : s.kind === 'firing' ? s.firedAt : s.resolvedAt;
  const silenceable = alertmanagerUrl !== null && s.kind !== 'resolved';
  // Silence on the alert's identity (alertname, scheduler), not its severity.
  const matchers: Record<string, string> = a.scheduler === null ? { alertname: a.rule } : { alertname: a.rule, scheduler: a.scheduler };
  return {
    rule: a.rule,
    state: s.kind,
    mode: resolveMode(modes, a.rule, a.scheduler).mode,
    since,
    activeAt: s.activeAt,
    firedAt: s.kind === 'pending' ? null : s.firedAt,
    summary: a.record.summary,
    delivery: sent === null ? null : { as: sent.as, sentAt: sent.at, delivered: a.deliveredSentAt === sent.at },
    silenceUrl: silenceable ? silenceFormUrl(alertmanagerUrl, matchers) : null,
  };
}

const ACTIVE = new Set(['pending', 'firing']);

/** The last transition of each rule at or before `atMs`, where it left the alert pending or firing. */
export function alertsAt(events: readonly AlertEventLog[], atMs: number): SchedulerAlert[] {
  const last = new Map<AlertName, AlertEventLog>();
  for (const e of events) if (e.at_ms <= atMs && isAlertName(e.rule)) last.set(e.rule, e);
  const out: SchedulerAlert[] = [];
  for (const [rule, e] of last) {
    if (!ACTIVE.has(e.to_state)) continue;
    const state = e.to_state as 'pending' | 'firing';
    out.push({
      rule,
      state,
      mode: e.mode,
      since: toIso(e.at_ms),
      activeAt: null,
      firedAt: state === 'firing' ? toIso(e.at_ms) : null,
      summary: null,
      delivery: null,
      silenceUrl: null,
    });
  }
  return out.sort((a, b) => (a.state === b.state ? (a.rule < b.rule ? -1 : 1) : a.state === 'firing' ? -1 : 1));
}

/** Pending and firing spans overlapping [fromMs, toMs], from the transitions (sorted by time), clipped to the span. */
export function alertSpans(events: readonly AlertEventLog[], fromMs: number, toMs: number): AlertSpan[] {
  const open = new Map<AlertName, { state: 'pending' | 'firing'; fromMs: number; mode: AlertMode }>();
  const spans: AlertSpan[] = [];
  const close = (rule: AlertName, endMs: number | null) => {
    const o = open.get(rule);
    if (!o) return;
    open.delete(rule);
    if (endMs !== null && endMs < fromMs) return;
    if (o.fromMs > toMs) return;
    spans.push({ rule, state: o.state, from: toIso(Math.max(o.fromMs, fromMs)), to: endMs === null || endMs > toMs ? null : toIso(endMs), mode: o.mode });
  };
  for (const e of events) {
    if (!isAlertName(e.rule) || e.at_ms > toMs) continue;
    close(e.rule, e.at_ms);
    if (ACTIVE.has(e.to_state)) open.set(e.rule, { state: e.to_state as 'pending' | 'firing', fromMs: e.at_ms, mode: e.mode });
  }
  for (const rule of [...open.keys()]) close(rule, null);
  return spans.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/**
 * An incident report from what the reads gave (./incident.ts): one line per
 * thing that happened on a scheduler over [from, to], oldest first, each
 * with a link to the scheduler's page at that moment (`?at=`).
 *
 * Guarantees: pure (no I/O, no clock); only what happened inside [from, to]
 * is listed, except the health at `from`, which opens the report; lines at
 * one instant keep a fixed order (authority, then health, writes, operators,
 * alerts) so the same facts always read the same.
 * Non-guarantees: health is the one `buildHistory` judged at its bucket ends
 * (`healthResolutionMs` apart): a change is known only to within a bucket,
 * and an episode shorter than one can fall between two. A maintenance window
 * is matched against the scheduler's labels as they are now, and only while
 * the window is kept (7 days after it closed; its changes stay in the audit).
 */
import type { AuditEntry, IncidentEntry, IncidentResponse, MaintenanceWindowView, SchedulerHistoryResponse, StaleWriteRejection } from '../api/types';
import type { Labels } from '../limits/labels';
import { occurrencesWithin } from '../limits/maintenance';
import { matchesSelector, parseSelector } from '../limits/selector';
import { toIso as iso } from '../status/time';
import type { LeaseEventLog } from './asof/tenures';
import type { AlertEventLog } from './alerts/view';

export interface IncidentFacts {
  name: string;
  fromMs: number;
  /** Already clamped to the database's now. */
  toMs: number;
  nowMs: number;
  history: SchedulerHistoryResponse;
  events: readonly LeaseEventLog[];
  rejections: readonly StaleWriteRejection[];
  alerts: readonly AlertEventLog[];
  audit: readonly AuditEntry[];
  maintenance: readonly MaintenanceSpan[];
  truncated: boolean;
}

/** A maintenance window's opening that covered the scheduler within the range: [fromMs, toMs), cut short if cancelled. */
export interface MaintenanceSpan {
  id: number;
  /** What it covers, as a person reads it: its selector, or that it names this scheduler. */
  covers: string;
  reason: string;
  by: string;
  fromMs: number;
  toMs: number;
  cancelled: boolean;
}

/** The openings of the windows that cover `name` (by name, or by selector over `labels`) within [fromMs, toMs], oldest first. */
export function maintenanceSpans(windows: readonly MaintenanceWindowView[], name: string, labels: Labels, fromMs: number, toMs: number): MaintenanceSpan[] {
  const spans: MaintenanceSpan[] = [];
  for (const w of windows) {
    const parsed = w.selector === null ? null : parseSelector(w.selector);
    const covers = parsed === null ? (w.schedulers ?? []).includes(name) : parsed.ok && matchesSelector(parsed.selector, labels);
    if (!covers) continue;
    const span = { startsAtMs: Date.parse(w.startsAt), endsAtMs: Date.parse(w.endsAt), weekly: w.weekly };
    const cancelledAtMs = w.cancelledAt === null ? null : Date.parse(w.cancelledAt);
    for (const o of occurrencesWithin(span, cancelledAtMs, fromMs, toMs)) {
      spans.push({ id: w.id, covers: w.selector ?? 'names this scheduler', reason: w.reason, by: w.by, ...o });
    }
  }
  return spans.sort((a, b) => a.fromMs - b.fromMs || a.id - b.id);
}

/** `${base}/schedulers/NAME?at=ISO`: `base` is the dashboard's URL with its base path, no trailing slash. */
function momentLink(base: string, name: string, at: string): string {
  return `${base}/schedulers/${encodeURIComponent(name)}?at=${encodeURIComponent(at)}`;
}

const ORDER: Record<IncidentEntry['kind'], number> = { lapse: 0, release: 1, holder: 2, health: 3, stale_write: 4, operator: 5, maintenance: 6, alert: 7 };

function holderName(holder: string, label: string | null): string {
  return label === null ? `\`${holder}\`` : `\`${holder}\` (${label})`;
}

function leaseLines(facts: IncidentFacts): Omit<IncidentEntry, 'link'>[] {
  const lines: Omit<IncidentEntry, 'link'>[] = [];
  for (const e of facts.events) {
    if (e.at_ms < facts.fromMs || e.at_ms > facts.toMs) continue;
    const who = holderName(e.holder, e.label);
    if (e.kind === 'released') lines.push({ at: iso(e.at_ms), kind: 'release', text: `${who} released the lease (epoch ${e.epoch})` });
    else if (e.kind === 'acquired') lines.push({ at: iso(e.at_ms), kind: 'holder', text: `${who} acquired the lease: epoch ${e.epoch}` });
    else lines.push({ at: iso(e.at_ms), kind: 'holder', text: `${who} took over: epoch ${e.previous_epoch ?? '?'} → ${e.epoch}` });
  }
  for (const t of facts.history.tenures) {
    if (t.ended !== 'expired' || t.to === null) continue;
    const endMs = Date.parse(t.to);
    if (endMs < facts.fromMs || endMs > facts.toMs) continue;
    lines.push({ at: t.to, kind: 'lapse', text: `Epoch ${t.epoch} of ${holderName(t.holder, t.label)} expired: no leader until the next grant` });
  }
  return lines;
}

/**
 * Health is judged at bucket ends (`fromMs + k × bucketMs`): a change is
 * dated at the first bucket end that saw it — the moment whose page shows
 * it — and the one at `from` opens the report.
 */
function healthLines(facts: IncidentFacts): Omit<IncidentEntry, 'link'>[] {
  const { bucketMs } = facts.history;
  const seenAt = (fromMs: number, toMs: number) => {
    const end = facts.fromMs + Math.floor((fromMs - facts.fromMs) / bucketMs + 1) * bucketMs;
    return Math.min(end, toMs);
  };
  return facts.history.segments.map((s, i) => {
    const why = s.gap === null ? '' : ` (${s.gap.reason.replace(/_/g, ' ')} since ${s.gap.from})`;
    if (i === 0) return { at: s.from, kind: 'health' as const, text: `Health at the start: ${s.health}${why}` };
    const at = iso(seenAt(Date.parse(s.from), Date.parse(s.to)));
    return { at, kind: 'health' as const, text: `Health became ${s.health}${why}, judged between ${s.from} and ${at}` };
  });
}

function writeLines(facts: IncidentFacts): Omit<IncidentEntry, 'link'>[] {
  return facts.rejections
    .filter((r) => Date.parse(r.at) >= facts.fromMs && Date.parse(r.at) <= facts.toMs)
    .map((r) => ({
      at: r.at,
      kind: 'stale_write' as const,
      text: `Stale write refused on \`${r.resource}\`: epoch ${r.attemptedEpoch} wrote while the lease was at ${r.currentEpoch ?? 'none'} (${r.reason.replace(/_/g, ' ')})`,
    }));
}

function operatorLines(facts: IncidentFacts): Omit<IncidentEntry, 'link'>[] {
  return facts.audit
    .filter((a) => Date.parse(a.at) >= facts.fromMs && Date.parse(a.at) <= facts.toMs)
    .map((a) => {
      const change = a.from === '' && a.to === '' ? '' : ` ${a.from || '—'} → ${a.to || '—'}`;
      const how = a.identifiedBy === null ? '' : ` (${a.identifiedBy})`;
      return { at: a.at, kind: 'operator' as const, text: `${a.who}${how}: ${a.action}${change} — “${a.reason}”` };
    });
}

/** Each opening of a covering window within the range (or in progress at its start), and its end or cancellation. */
function maintenanceLines(facts: IncidentFacts): Omit<IncidentEntry, 'link'>[] {
  const lines: Omit<IncidentEntry, 'link'>[] = [];
  for (const m of facts.maintenance) {
    const window = `Maintenance window #${m.id} (covers \`${m.covers}\`)`;
    const why = `“${m.reason}” (${m.by})`;
    if (m.fromMs < facts.fromMs) {
      lines.push({ at: iso(facts.fromMs), kind: 'maintenance', text: `In maintenance at the start: ${window}, open since ${iso(m.fromMs)}, ${why}` });
    } else {
      lines.push({ at: iso(m.fromMs), kind: 'maintenance', text: `${window} opened: ${why}; its alerts are not delivered while it is open` });
    }
    if (m.toMs <= facts.toMs) {
      lines.push({ at: iso(m.toMs), kind: 'maintenance', text: `${window} ${m.cancelled ? 'cancelled' : 'ended'}: its alerts are delivered again` });
    }
  }
  return lines;
}

function alertLines(facts: IncidentFacts): Omit<IncidentEntry, 'link'>[] {
  return facts.alerts
    .filter((a) => a.at_ms >= facts.fromMs && a.at_ms <= facts.toMs)
    .map((a) => ({ at: iso(a.at_ms), kind: 'alert' as const, text: `Alert ${a.rule}: ${a.from_state} → ${a.to_state} (mode ${a.mode})` }));
}

/** The report: every line in time order, linked under `linkBase`. */
export function buildIncident(facts: IncidentFacts, linkBase: string): IncidentResponse {
  const lines = [...leaseLines(facts), ...healthLines(facts), ...writeLines(facts), ...operatorLines(facts), ...maintenanceLines(facts), ...alertLines(facts)];
  const entries = lines
    .map((line, i) => ({ line, i }))
    .sort((a, b) => Date.parse(a.line.at) - Date.parse(b.line.at) || ORDER[a.line.kind] - ORDER[b.line.kind] || a.i - b.i)
    .map(({ line }) => ({ ...line, link: momentLink(linkBase, facts.name, line.at) }));
  return {
    scheduler: facts.name,
    from: iso(facts.fromMs),
    to: iso(facts.toMs),
    readAt: iso(facts.nowMs),
    healthResolutionMs: facts.history.bucketMs,
    truncated: facts.truncated,
    entries,
  };
}

/**
 * Facts AS OF an instant, rebuilt from logs (./logs.ts) — a mapping that
 * judges nothing; the caller projects them with lib/status at `now = t`.
 *
 * What is exact: the lease tenure in force at t (lease_events; a tenure is
 * contiguous), held/expired/released at t, holder and epoch; the intent
 * (intent_audit); the report state of each epoch (last report, seq, occurrence,
 * cursor, last advance — from the reports at or before t, runs expanded); report
 * breaks and the cadence an open silence is judged by (the report-break rule,
 * lib/status/report-break.ts, on each report's own cadence); whether the
 * occurrence slot at t was claimed.
 *
 * What is estimated (listed in `estimated`): renewals are stored as a
 * per-minute rollup (max gap), not one row per renewal, so `renewedAt` at t is
 * known exactly only when the lease row's latest renewal is ≤ t (same epoch) or
 * the tenure lapsed by t (renewedAt = expiry − ttl). Otherwise renewedAt is
 * t − (largest renewal gap recorded for that epoch between the minute before
 * t and the minute after it): an upper bound of the renewal age, so `atRisk`
 * errs towards warning; with no rollup nearby, t − ttl (+1 ms). ttl of past
 * epochs is the lease row's ttl (not logged per epoch); thresholds are the
 * scheduler's current registration (not logged either). An occurrence resumed
 * by a later leader has its claimed_at moved, so its earlier claim is unseen.
 */
import { DEFAULT_LEASE_TIMING } from '../../lease';
import type { SchedulerFacts } from '../../status/types';
import type { ReportAgg, SchedulerLogs } from './logs';
import { tenureAt, type TenureLog } from './tenures';
import { toIso as iso } from '../../status/time';

const MINUTE = 60_000;

interface EpochState {
  lastMs: number;
  seq: number;
  occ: string | null;
  cursor: number | null;
  advMs: number | null;
  /** The cadence of the last report (null: it did not keep one). */
  every: number | null;
}

/** Per-epoch report state, folded forward bucket by bucket. */
export class ReportStates {
  private readonly byEpoch = new Map<number, EpochState>();

  constructor(carry: readonly ReportAgg[]) {
    for (const c of carry) this.apply(c);
  }

  apply(agg: ReportAgg): void {
    const prev = this.byEpoch.get(agg.epoch);
    const advMs = prev?.advMs == null ? agg.adv_ms : agg.adv_ms == null ? prev.advMs : Math.max(prev.advMs, agg.adv_ms);
    if (prev === undefined || agg.last_ms >= prev.lastMs) {
      this.byEpoch.set(agg.epoch, { lastMs: agg.last_ms, seq: agg.seq, occ: agg.occ, cursor: agg.cursor, advMs, every: agg.every });
    } else {
      prev.advMs = advMs;
    }
  }

  /** The newest epoch that reported, with its state. */
  newest(): { epoch: number; state: EpochState } | null {
    let best: { epoch: number; state: EpochState } | null = null;
    for (const [epoch, state] of this.byEpoch) if (best === null || epoch > best.epoch) best = { epoch, state };
    return best;
  }
}

export interface FactsAsOf {
  facts: SchedulerFacts;
  /** Fields that are estimates, not logged facts (e.g. `lease.renewedAt`). */
  estimated: string[];
}

export function factsAt(logs: SchedulerLogs, tenures: readonly TenureLog[], states: ReportStates, t: number, slotIndex: number): FactsAsOf {
  const estimated: string[] = [];
  const lease = leaseAt(logs, tenureAt(tenures, t), t, estimated);
  const progress = progressAt(logs, states, t);
  const slot = logs.slots.find((s) => s.i === slotIndex);
  // Due only while no report says something is in flight (as the live read).
  const due = slot !== undefined && (progress === null || progress.inFlight === null) ? { occurrence: slot.key, dueAt: iso(slot.slot_ms) } : null;
  let intent: SchedulerFacts['intent'] = null;
  for (const i of logs.intents) if (i.at_ms <= t) intent = { disabled: i.disabled, by: i.by, reason: i.reason, at: iso(i.at_ms) };
  // Labels are not kept in history: the scheduler's labels now.
  return { facts: { name: logs.name, store: { ok: true }, lease, intent, progress, due, labels: logs.labels }, estimated };
}

function leaseAt(logs: SchedulerLogs, tenure: TenureLog | null, t: number, estimated: string[]): SchedulerFacts['lease'] {
  if (tenure === null) return null;
  const row = logs.lease;
  const ttl = row?.ttl_ms ?? DEFAULT_LEASE_TIMING.ttlMs;
  const ended = tenure.toMs !== null && tenure.toMs <= t;
  let renewedMs: number;
  let expiresMs: number;
  if (ended && tenure.ended === 'expired') {
    expiresMs = tenure.toMs!;
    renewedMs = Math.max(tenure.fromMs, expiresMs - ttl);
  } else {
    const until = ended ? tenure.toMs! : t;
    renewedMs = renewalAt(logs, tenure, until, ttl, estimated);
    expiresMs = ended ? tenure.toMs! : Math.max(renewedMs + ttl, t + 1);
    if (!ended && tenure.toMs !== null) expiresMs = Math.min(expiresMs, tenure.toMs);
  }
  return {
    name: logs.name,
    holder: tenure.holder,
    label: tenure.label,
    epoch: tenure.epoch,
    acquiredAt: iso(tenure.fromMs),
    renewedAt: iso(renewedMs),
    expiresAt: iso(expiresMs),
    ttlMs: ttl,
    released: ended && tenure.ended === 'released',
  };
}

function renewalAt(logs: SchedulerLogs, tenure: TenureLog, t: number, ttl: number, estimated: string[]): number {
  const row = logs.lease;
  if (row !== null && row.epoch === tenure.epoch && row.renewed_ms <= t) return row.renewed_ms;
  estimated.push('lease.renewedAt');
  const minute = Math.floor(t / MINUTE) * MINUTE;
  let gap: number | null = null;
  const consider = (epoch: number, minuteMs: number, maxGap: number) => {
    if (epoch === tenure.epoch && minuteMs >= minute - MINUTE && minuteMs <= minute + MINUTE) gap = Math.max(gap ?? 0, maxGap);
  };
  for (const r of logs.renewals) consider(r.epoch, r.minute_ms, r.max_gap_ms);
  if (row !== null && row.gap_bucket_ms !== null && row.gap_bucket_max_ms !== null) consider(row.epoch, row.gap_bucket_ms, row.gap_bucket_max_ms);
  const bound = gap === null ? t - ttl + 1 : t - Math.min(gap, ttl - 1);
  return Math.min(t, Math.max(tenure.fromMs, bound));
}

function progressAt(logs: SchedulerLogs, states: ReportStates, t: number): SchedulerFacts['progress'] {
  const newest = states.newest();
  if (newest === null) return null;
  const { epoch, state } = newest;
  // The most recent closed break at t (the last in log order): formatted once, not once per break —
  // a silent stream can log thousands of breaks in a 24-hour span, and this runs at every instant judged.
  let last: SchedulerLogs['breaks'][number] | null = null;
  for (const b of logs.breaks) if (b.epoch === epoch && b.to_ms <= t) last = b;
  const gap: NonNullable<SchedulerFacts['progress']>['gap'] = last === null ? null : { from: iso(last.from_ms), to: iso(last.to_ms), reason: last.reason };
  return {
    epoch,
    lastReportAt: iso(state.lastMs),
    lastSeq: state.seq,
    // An epoch's first report is an advance, so advMs is known. Should the
    // logs lack it, a report time is never taken as proof of progress: the
    // advance is dated at the Unix epoch ("never seen").
    lastAdvanceAt: iso(state.advMs ?? 0),
    inFlight: state.occ,
    cursor: state.cursor,
    // The last report's own cadence, as the live summary carries it: the open silence is judged by it.
    reportEveryMs: state.every ?? logs.reportEveryMs,
    gap,
  };
}

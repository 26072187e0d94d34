/**
 * One scheduler's history over a span: health segments (unknown spans
 * explicit, with their gap), report gaps, tenures and bucketed series,
 * rebuilt from logs — not from samples.
 *
 * Guarantees: two statements per call (the database's now, to resolve
 * defaults; then ./logs-sql.ts for the whole span); the health at each bucket
 * end is lib/status `project` applied to the facts as of that instant
 * (./facts-at.ts), so no rule is re-implemented; the span's rules, each
 * written once (`spanRefusal`, applied to the span asked and to the span resolved): defaults to = now, from = to − 1 h, but never before
 * the retention horizon (./horizon.ts); `to` after now is clamped to now;
 * span ≤ 24 h, inverted/empty → `invalid` (`invalid_span`); a `from` given
 * before the horizon, or a `to` before it → `outside_retention` naming the
 * oldest instant kept; at most 360 buckets of a "nice" width.
 * Nothing before the scheduler existed (its first registration, or its first
 * lease event kept if earlier: `registeredAt`): no segment, gap or epoch
 * starts before it, and a defaulted `from` starts there when the scheduler is
 * younger than the default span (the chart zooms to what was observed).
 * Renewal age per bucket: the longest renewal gap of the minute rollups the
 * bucket overlaps, and — exactly — the age since a tenure's last renewal up to
 * its end (takeover, release, or now for the current epoch), so a lapse shows
 * the age climbing past ttl in the bucket where it happened.
 * A database failover (a grant of a later failover generation than the
 * tenure before it) makes every bucket touching its window unknown, with a
 * `failover` gap from the last evidence of the older generation to the
 * newer one's first grant (lib/status/durability.ts `failoverWindows`):
 * what the old primary granted after that may be lost, so nothing there is
 * known — never green, and never the "no leader" the surviving rows suggest.
 * Alert spans (pending, firing) come from the alert transitions log in the
 * same statement (../alerts/view.ts).
 * Non-guarantees: health between two bucket ends is not sampled (a shorter
 * episode can fall between); gaps between renewals have 1-minute resolution (rollup).
 */
import type { HealthSegment, HistoryBucket, SchedulerHistoryResponse } from '../../api/types';
import { failoverWindows, type GrantLog, project } from '../../status';
import type { ObservationGap, SchedulerStatus } from '../../status/types';
import { factsAt, ReportStates } from './facts-at';
import type { ReadDeps } from './detail';
import { thresholdsFor } from '../live/facts';
import { readLogs, type SchedulerLogs } from './logs';
import { historyHorizonMs, type RetentionPolicy } from '../../retention';
import { outsideRetention } from './horizon';
import { failed, okResult, type ReadError, type ReadResult, UNKNOWN_SCHEDULER } from '../domain/result';
import { unreadableResult } from '../store/deadline';
import { currentLease, type LeaseEventLog, rebuildTenures, type TenureLog, toApiTenure } from './tenures';
import { toIso as iso } from '../../status/time';
import { alertSpans } from '../alerts/view';

const HISTORY_DEFAULT_SPAN_MS = 3_600_000;
const HISTORY_MAX_SPAN_MS = 24 * 3_600_000;
const HISTORY_MAX_POINTS = 360;
const NICE_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5];

/** ceil(span / points), rounded up to a nice width (1-2-5 ms…, 1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1 min …). */
export function bucketMsFor(spanMs: number, points = HISTORY_MAX_POINTS): number {
  const raw = Math.max(1, Math.ceil(spanMs / points));
  return NICE_MS.find((n) => n >= raw) ?? raw;
}

/** Bucket ends: from + b, from + 2b, …, capped at `to` (the last may be short). */
export function bucketEnds(fromMs: number, toMs: number, bucketMs: number): number[] {
  const ends: number[] = [];
  for (let end = fromMs + bucketMs; ; end += bucketMs) {
    ends.push(Math.min(end, toMs));
    if (end >= toMs) return ends;
  }
}

type Span = { fromMs: number; toMs: number };

const invalidSpan = (message: string): ReadError => ({ kind: 'invalid', code: 'invalid_span', message });

/** A span given inverted or longer than 24 h, refused as asked: before the store is read, and before anything about retention. */
/** The span rule, for the span asked and for the span resolved: non-empty, at most 24 h. */
function spanRefusal(fromMs: number, toMs: number, emptyWhy = 'from must be before to'): ReadError | null {
  if (fromMs >= toMs) return invalidSpan(emptyWhy);
  return toMs - fromMs > HISTORY_MAX_SPAN_MS ? invalidSpan('span longer than 24 h') : null;
}

/** A span asked for in full is refused before the database is read when it breaks the rule. */
function askedSpanRefusal(from: number | null, to: number | null): ReadError | null {
  return from === null || to === null ? null : spanRefusal(from, to);
}

/**
 * The span asked for (`from`/`to` epoch ms, null: default), resolved against the
 * database's now and the horizon: first the horizon, then the span as resolved
 * (defaults, `to` clamped to now) must be non-empty and at most 24 h.
 */
function resolveSpan(nowMs: number, from: number | null, to: number | null, retention: RetentionPolicy, bornMs: number | null = null): ReadResult<Span> {
  const toMs = Math.min(to ?? nowMs, nowMs);
  const outside = from !== null ? outsideRetention('from', from, retention, nowMs) : outsideRetention('to', toMs, retention, nowMs);
  if (outside !== null) return failed(outside);
  // A defaulted start reaches back an hour, or to the oldest instant kept (a shrunk retention keeps less than an hour).
  const defaultFrom = Math.max(toMs - HISTORY_DEFAULT_SPAN_MS, historyHorizonMs(retention, nowMs));
  // …and no earlier than the scheduler's birth, when it was born inside that span (younger than an hour).
  const fromMs = from ?? (bornMs !== null && bornMs > defaultFrom && bornMs < toMs ? bornMs : defaultFrom);
  const refusal = spanRefusal(fromMs, toMs, from !== null && from >= nowMs ? "from: after the database's current time" : undefined);
  return refusal !== null ? failed(refusal) : okResult({ fromMs, toMs });
}

/** The database's now and when `name` began to exist (exported for tests). */
export const BIRTH_SQL = `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms,
  ceil(extract(epoch FROM LEAST((SELECT first_registered_at FROM schedulers WHERE name = $1),
                                 (SELECT min(at) FROM leaseboard_lease_log($1, 'infinity')))) * 1000)::float8 AS born_ms`;

/** The database's now, and when `name` began to exist (whole ms, rounded up): its first registration, or its oldest lease event kept if earlier (null: neither). */
async function nowAndBirth(db: ReadDeps['db'], name: string): Promise<{ nowMs: number; bornMs: number | null }> {
  const { rows } = await db.query({ text: BIRTH_SQL, values: [name] });
  const r = rows[0] as { now_ms: number; born_ms: number | null };
  return { nowMs: r.now_ms, bornMs: r.born_ms };
}

/** The history of `name` over [from, to] (epoch ms; null: the defaults of `resolveSpan`). */
export async function readHistory(deps: ReadDeps, name: string, from: number | null, to: number | null): Promise<ReadResult<SchedulerHistoryResponse>> {
  const asked = askedSpanRefusal(from, to);
  if (asked !== null) return failed(asked);
  let read: { span: ReadResult<Span>; logs: (SchedulerLogs & { bornMs: number | null }) | null; nowMs: number };
  try {
    read = await deps.observer.read(
      'history read',
      async () => {
        const { nowMs, bornMs } = await nowAndBirth(deps.db, name);
        const span = resolveSpan(nowMs, from, to, deps.retention, bornMs);
        if (!span.ok) return { span, logs: null, nowMs };
        const bucketMs = bucketMsFor(span.value.toMs - span.value.fromMs);
        const ends = bucketEnds(span.value.fromMs, span.value.toMs, bucketMs);
        return { span, logs: { ...(await readLogs(deps.db, name, { ...span.value, ends, bucketMs })), bornMs }, nowMs };
      },
      (r) => r.nowMs,
    );
  } catch (error) {
    return unreadableResult(error);
  }
  if (!read.span.ok) return read.span;
  const logs = read.logs!;
  if (!logs.known) return failed(UNKNOWN_SCHEDULER);
  return okResult(buildHistory(logs));
}

/** Pure: the response from the logs (exported for tests); `bornMs`: see `nowAndBirth` (null: no limit). */
export function buildHistory(logs: SchedulerLogs & { bornMs: number | null }): SchedulerHistoryResponse {
  const bornMs = logs.bornMs ?? -Infinity;
  const tenures = rebuildTenures(logs.events, currentLease(logs.lease), logs.nowMs);
  const ages = renewalAges(logs, tenures);
  const thresholds = thresholdsFor(logs.registration);
  const states = new ReportStates(logs.carry);
  const failovers = failoverWindows(logs.events.filter((e) => e.kind !== 'released').map(grantOf)).filter((w) => w.toMs > logs.fromMs && w.fromMs < logs.toMs);
  const segments: HealthSegment[] = [];
  const buckets: HistoryBucket[] = [];
  const openGaps: ObservationGap[] = [];
  let next = 0;
  for (let i = 0; i < logs.ends.length; i++) {
    const start = i === 0 ? logs.fromMs : logs.ends[i - 1]!;
    const end = logs.ends[i]!;
    let reports = 0,
      advances = 0,
      cursor: number | null = null,
      lastMs = -Infinity;
    for (; next < logs.buckets.length && logs.buckets[next]!.i <= i; next++) {
      const agg = logs.buckets[next]!;
      states.apply(agg);
      reports += agg.n;
      advances += agg.adv;
      if (agg.last_ms >= lastMs) [lastMs, cursor] = [agg.last_ms, agg.cursor];
    }
    const status: SchedulerStatus = project(factsAt(logs, tenures, states, end, i).facts, iso(end), thresholds);
    const existed = end > bornMs;
    if (existed) {
      const from = Math.max(start, bornMs);
      const failover = failovers.find((w) => w.fromMs < end && w.toMs > start);
      if (failover) {
        addSegment(segments, {
          from: iso(from),
          to: iso(end),
          health: 'unknown',
          gap: { from: iso(failover.fromMs), to: iso(failover.toMs), reason: 'failover' },
        });
      } else {
        const gap = status.health === 'unknown' ? clipGap(status.observation.gap, bornMs) : null;
        addSegment(segments, { from: iso(from), to: iso(end), health: status.health, gap });
        const open = clipGap(status.observation.gap, bornMs);
        if (open !== null) openGaps.push(open);
      }
    }
    buckets.push({
      t: iso(start),
      renewalAgeMaxMs: renewalMax(ages, start, end),
      cursor: reports > 0 ? cursor : null,
      advances,
      reports,
      epoch: existed && status.authority.state === 'held' ? status.authority.epoch : null,
    });
  }
  const closed = logs.breaks
    .filter((b) => b.to_ms >= logs.fromMs && b.to_ms > bornMs)
    .map((b) => ({ from: iso(Math.max(b.from_ms, bornMs)), to: iso(b.to_ms), reason: b.reason }));
  return {
    name: logs.name,
    from: iso(logs.fromMs),
    to: iso(logs.toMs),
    bucketMs: logs.bucketMs,
    registeredAt: logs.bornMs === null ? null : iso(logs.bornMs),
    ttlMs: logs.lease?.ttl_ms ?? null,
    segments,
    gaps: mergeGaps([...closed, ...openGaps, ...failovers.map((w) => ({ from: iso(w.fromMs), to: iso(w.toMs), reason: 'failover' as const }))]),
    tenures: tenures.filter((t) => t.fromMs <= logs.toMs && (t.toMs === null || t.toMs >= logs.fromMs)).map(toApiTenure),
    buckets,
    alerts: alertSpans(logs.alerts, logs.fromMs, logs.toMs),
  };
}

function grantOf(e: LeaseEventLog): GrantLog {
  return { epoch: e.epoch, atMs: e.at_ms, previousEpoch: e.previous_epoch, previousRenewedMs: e.last_renewed_ms ?? null, previousEndedMs: e.previous_ended_ms };
}

/** A gap as far as the scheduler existed: starting no earlier than its birth. */
function clipGap(gap: ObservationGap | null, bornMs: number): ObservationGap | null {
  if (gap === null || !(Date.parse(gap.from) < bornMs)) return gap;
  return Date.parse(gap.to) <= bornMs ? null : { ...gap, from: iso(bornMs) };
}

function sameGap(a: ObservationGap | null, b: ObservationGap | null): boolean {
  return a === b || (a !== null && b !== null && a.reason === b.reason && a.from === b.from);
}

function addSegment(segments: HealthSegment[], s: HealthSegment): void {
  const last = segments[segments.length - 1];
  if (last && last.health === s.health && sameGap(last.gap, s.gap)) {
    last.to = s.to;
    if (last.gap && s.gap) last.gap = { ...last.gap, to: s.gap.to };
  } else {
    segments.push(s);
  }
}

/** One gap per (reason, from): the open silence seen at successive bucket ends is the same gap growing. */
function mergeGaps(gaps: ObservationGap[]): ObservationGap[] {
  const byKey = new Map<string, ObservationGap>();
  for (const g of gaps) {
    const key = `${g.reason}|${g.from}`;
    const seen = byKey.get(key);
    if (!seen || g.to > seen.to) byKey.set(key, { ...g });
  }
  return [...byKey.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/** Last renewal → end of each tenure the logs know: its takeover or release, or (the current epoch, unreleased) now. */
function finalGaps(logs: SchedulerLogs): Span[] {
  const gaps = logs.events.flatMap((e) => (e.last_renewed_ms == null ? [] : [{ fromMs: e.last_renewed_ms, toMs: e.at_ms }]));
  const l = logs.lease;
  if (l && l.released_ms === null) gaps.push({ fromMs: l.renewed_ms, toMs: logs.nowMs });
  return gaps;
}

interface RenewalAges {
  /** Longest gap between renewals per epoch and minute (the rollup), clipped to the epoch's tenure when known. */
  rollups: (Span & { gapMs: number })[];
  /** Last renewal → end of tenure: the age there is exact (`t − fromMs`). */
  finals: Span[];
}

function renewalAges(logs: SchedulerLogs, tenures: readonly TenureLog[]): RenewalAges {
  const clip = (epoch: number, minuteMs: number, gapMs: number) => {
    const tenure = tenures.find((t) => t.epoch === epoch);
    return { fromMs: Math.max(minuteMs, tenure?.fromMs ?? -Infinity), toMs: Math.min(minuteMs + 60_000, tenure?.toMs ?? Infinity), gapMs };
  };
  const rollups = logs.renewals.map((r) => clip(r.epoch, r.minute_ms, r.max_gap_ms));
  const l = logs.lease;
  if (l && l.gap_bucket_ms !== null && l.gap_bucket_max_ms !== null) rollups.push(clip(l.epoch, l.gap_bucket_ms, l.gap_bucket_max_ms));
  return { rollups, finals: finalGaps(logs) };
}

/** Largest renewal age in [start, end): rollup gaps overlapping it, and the age reached in a final gap. */
function renewalMax(ages: RenewalAges, start: number, end: number): number | null {
  let max: number | null = null;
  for (const r of ages.rollups) if (r.fromMs < end && r.toMs > start) max = Math.max(max ?? 0, r.gapMs);
  for (const gap of ages.finals) if (gap.fromMs < end && gap.toMs > start) max = Math.max(max ?? 0, Math.round(Math.min(end, gap.toMs) - gap.fromMs));
  return max;
}

/**
 * The scheduler page's timeline as chart data. Pure.
 *
 * Guarantees: nothing is interpolated. A bucket without evidence is a null
 * point (the chart draws a break, `connectNulls={false}`), and every bucket
 * inside an unknown span is forced to null even if a stray value exists, so a
 * line never bridges a gap. Unknown spans come from the history's health
 * segments and its explicit observation gaps, clipped to the window; a
 * failover's span hides the authority line too (the old primary's renewals
 * may be lost), and the epoch that follows it is marked as a failover.
 * Readable at any pace of takeovers: every epoch change keeps its line, but
 * only marks at least LABEL_GAP_SHARE of the view apart carry a text label
 * (a failover always does), and likewise the no-leader shades; the figure's
 * caption counts them all.
 */
import type { HistoryBucket, SchedulerHistoryResponse } from '@/lib/api/types';
import { formatEpoch, generationOf, type GapReason } from '@/lib/status';
import { GAP_REASON_TEXT } from './status-view';

interface TimelinePoint {
  t: number;
  renewalAgeS: number | null;
  cursor: number | null;
  advances: number | null;
}

interface UnknownSpan {
  from: number;
  to: number;
  reason: GapReason | null;
  label: string;
  /** The authority axis is unknown too (the store itself could not be read). */
  coversAuthority: boolean;
}

/** A span in which nobody held the lease (health `no_leader`): after an expiry, a release, or before any grant. */
interface NoLeaderSpan {
  from: number;
  to: number;
  /** Far enough from the previous labelled span to carry its "no leader" text without overlapping it. */
  labelled: boolean;
}

interface EpochMark {
  t: number;
  epoch: number;
  holder: string;
  /** As a person reads it (`17`, `gen 2 · 17`: formatEpoch). */
  label: string;
  /** The first epoch of a later failover generation than the tenure before it: a database failover. */
  failover: boolean;
  /** Far enough from the previous labelled mark (or a failover) to carry its text without overlapping it. */
  labelled: boolean;
}

export interface TimelineModel {
  /** The requested window (the last hour). */
  from: number;
  to: number;
  /** Where the chart starts: the window's first evidence (at least MIN_VIEW_MS before `to`). */
  viewFrom: number;
  /**
   * Upper bound of the renewal-age axis (s): above the TTL and every point, but
   * at most RENEWAL_AXIS_TTLS × TTL — a long lapse runs off the top rather than
   * flattening every normal renewal.
   */
  renewalAxisMaxS: number;
  ttlS: number | null;
  points: TimelinePoint[];
  unknownSpans: UnknownSpan[];
  noLeaderSpans: NoLeaderSpan[];
  epochMarks: EpochMark[];
  advanceTotal: number;
}

const RENEWAL_AXIS_TTLS = 4;

/** Overlapping spans merge into one; the merged span keeps a known reason (a gap's) over none. */
function mergeSpans(spans: UnknownSpan[]): UnknownSpan[] {
  const merged: UnknownSpan[] = [];
  for (const span of [...spans].sort((x, y) => x.from - y.from)) {
    const last = merged.at(-1);
    if (last && span.from <= last.to) {
      last.to = Math.max(last.to, span.to);
      last.coversAuthority ||= span.coversAuthority;
      if (last.reason === null && span.reason !== null) Object.assign(last, { reason: span.reason, label: span.label });
      continue;
    }
    merged.push({ ...span });
  }
  return merged;
}

function unknownSpans(history: SchedulerHistoryResponse, from: number, to: number): UnknownSpan[] {
  const raw: { from: string; to: string; reason: GapReason | null }[] = [
    ...history.segments.filter((s) => s.health === 'unknown').map((s) => ({ from: s.from, to: s.to, reason: s.gap?.reason ?? null })),
    ...history.gaps.map((g) => ({ from: g.from, to: g.to, reason: g.reason })),
  ];
  const spans: UnknownSpan[] = [];
  for (const span of raw) {
    const a = Math.max(from, Date.parse(span.from));
    const b = Math.min(to, Date.parse(span.to));
    if (!(b > a)) continue;
    spans.push({
      from: a,
      to: b,
      reason: span.reason,
      label: span.reason ? `unknown: ${GAP_REASON_TEXT[span.reason]}` : 'unknown',
      coversAuthority: span.reason === 'store_unreadable' || span.reason === 'failover',
    });
  }
  return mergeSpans(spans);
}

/** At most this many points per chart: more cannot be told apart on a screen, and each costs rendering time. */
const MAX_POINTS = 120;

/**
 * Merges runs of `factor` consecutive buckets: peak renewal age, last cursor,
 * summed advances and reports, epoch at the end. A merged bucket is empty only
 * if all of its buckets were.
 */
function downsample(buckets: readonly HistoryBucket[], factor: number): HistoryBucket[] {
  if (factor <= 1) return [...buckets];
  const merged: HistoryBucket[] = [];
  for (let i = 0; i < buckets.length; i += factor) {
    const run = buckets.slice(i, i + factor);
    const ages = run.map((b) => b.renewalAgeMaxMs).filter((v): v is number => v !== null);
    const cursors = run.map((b) => b.cursor).filter((v): v is number => v !== null);
    merged.push({
      t: run[0]!.t,
      renewalAgeMaxMs: ages.length ? Math.max(...ages) : null,
      cursor: cursors.length ? cursors[cursors.length - 1]! : null,
      advances: run.reduce((sum, b) => sum + b.advances, 0),
      reports: run.reduce((sum, b) => sum + b.reports, 0),
      epoch: run[run.length - 1]!.epoch,
    });
  }
  return merged;
}

function inside(t: number, end: number, spans: readonly UnknownSpan[], authority: boolean): boolean {
  return spans.some((s) => (!authority || s.coversAuthority) && t < s.to && end > s.from);
}

/** The shortest span the chart shows, so a young scheduler is not a sliver at the right edge. */
export const MIN_VIEW_MS = 5 * 60_000;
const VIEW_MARGIN_MS = 30_000;

function firstEvidence(history: SchedulerHistoryResponse, spans: readonly UnknownSpan[]): number | null {
  const times = [
    ...history.tenures.map((tenure) => Date.parse(tenure.from)),
    ...history.buckets.filter((b) => b.reports > 0 || b.renewalAgeMaxMs !== null).map((b) => Date.parse(b.t)),
    ...spans.map((span) => span.from),
  ].filter(Number.isFinite);
  return times.length === 0 ? null : Math.min(...times);
}

/** The share of the view's width between two text labels of the same kind: about ten labels across the chart. */
export const LABEL_GAP_SHARE = 0.1;

/** Marks each item `labelled` when it starts (`startOf`) at least `gap` after the last labelled one, or when `always` says so. */
function spaced<T>(items: readonly T[], startOf: (item: T) => number, gap: number, always: (item: T) => boolean = () => false): (T & { labelled: boolean })[] {
  let last = -Infinity;
  return items.map((item) => {
    const labelled = always(item) || startOf(item) - last >= gap;
    if (labelled) last = startOf(item);
    return { ...item, labelled };
  });
}

/** The registration to label ("registered at …"): when it falls inside the window, else null (older than the window, or unknown). */
export function registrationInWindow(history: Pick<SchedulerHistoryResponse, 'registeredAt' | 'from' | 'to'>): string | null {
  const at = history.registeredAt === null ? NaN : Date.parse(history.registeredAt);
  return Number.isFinite(at) && at >= Date.parse(history.from) && at <= Date.parse(history.to) ? history.registeredAt : null;
}

export function timelineModel(history: SchedulerHistoryResponse): TimelineModel {
  const from = Date.parse(history.from);
  const to = Date.parse(history.to);
  const spans = unknownSpans(history, from, to);
  const evidence = firstEvidence(history, spans);
  const viewFrom = Math.max(from, Math.min(to - MIN_VIEW_MS, (evidence ?? to) - VIEW_MARGIN_MS));
  const visible = history.buckets.filter((b) => Date.parse(b.t) + history.bucketMs > viewFrom);
  const factor = Math.ceil(visible.length / MAX_POINTS);
  const bucketMs = history.bucketMs * Math.max(1, factor);
  // A merged bucket touching an unknown span is null as a whole: a line never bridges a gap.
  const points = downsample(visible, factor).map((bucket): TimelinePoint => {
    const t = Date.parse(bucket.t);
    const end = t + bucketMs;
    const workUnknown = inside(t, end, spans, false);
    const authorityUnknown = inside(t, end, spans, true);
    return {
      t,
      renewalAgeS: authorityUnknown || bucket.renewalAgeMaxMs === null ? null : bucket.renewalAgeMaxMs / 1000,
      cursor: workUnknown ? null : bucket.cursor,
      advances: workUnknown || bucket.reports === 0 ? null : bucket.advances,
    };
  });
  const ttlS = history.ttlMs === null ? null : history.ttlMs / 1000;
  const peak = Math.max(ttlS ?? 0, ...points.map((p) => p.renewalAgeS ?? 0));
  const axisMax = Math.max(1, Math.ceil(peak * 1.25));
  const ordered = [...history.tenures].sort((a, b) => a.epoch - b.epoch);
  const labelGap = (to - viewFrom) * LABEL_GAP_SHARE;
  const marks = ordered
    .map((tenure, i) => ({
      t: Date.parse(tenure.from),
      epoch: tenure.epoch,
      holder: tenure.holder,
      label: formatEpoch(tenure.epoch),
      failover: i > 0 && generationOf(tenure.epoch) > generationOf(ordered[i - 1]!.epoch),
    }))
    .filter((mark) => mark.t >= viewFrom && mark.t <= to)
    .sort((a, b) => a.t - b.t);
  const epochMarks: EpochMark[] = spaced(
    marks,
    (mark) => mark.t,
    labelGap,
    (mark) => mark.failover,
  );
  return {
    from,
    to,
    viewFrom,
    renewalAxisMaxS: ttlS === null ? axisMax : Math.min(axisMax, Math.max(1, Math.ceil(ttlS * RENEWAL_AXIS_TTLS))),
    ttlS,
    points,
    unknownSpans: spans.filter((span) => span.to > viewFrom).map((span) => ({ ...span, from: Math.max(span.from, viewFrom) })),
    noLeaderSpans: spaced(
      history.segments
        .filter((segment) => segment.health === 'no_leader')
        .map((segment) => ({ from: Math.max(viewFrom, Date.parse(segment.from)), to: Math.min(to, Date.parse(segment.to)) }))
        .filter((span) => span.to > span.from)
        .sort((a, b) => a.from - b.from),
      (span) => span.from,
      labelGap,
    ),
    epochMarks,
    advanceTotal: history.buckets.reduce((sum, b) => sum + b.advances, 0),
  };
}

/**
 * Reliability over a window (24 h, 7 d, 30 d): the share of time a scheduler,
 * or a group, spent in each health, from the health rollup (what the alert
 * evaluator judged). Pure: no I/O, no clock (`nowMs` is database time).
 *
 * Guarantees
 * - A window ends at now. `24h` starts 24 h before; `7d` and `30d` start at
 *   the UTC midnight 7 (30) days before today's: the whole days of a report
 *   are calendar days, read from the folded days (kept 32 days) and never
 *   from changes past their retention (7 days by default), and today so far
 *   is added. A scheduler is accounted from its first registration when that
 *   is later (it did not exist before).
 * - Time nobody judged is `unknown`, never up: whatever the stored time per
 *   health does not cover of the accounted span is added to `unknown`, and
 *   stored time beyond the span (impossible unless rows overlap) is cut from
 *   `unknown` first, never from a bad health.
 * - `splitWindow` reads whole UTC days from the folded days (health_days),
 *   whole hours left from the folded hours (health_hours), and the rest (the
 *   partial hours at the ends) from the changes: no instant is read twice or
 *   left out, and a 30-day report reads per scheduler at most 30 days, 23
 *   hours and the changes of two partial hours.
 * - Fractions of every health sum to 1 (before rounding) when anything was
 *   accounted; nothing accounted → every fraction null (no data is not 0 %).
 */
import { HEALTH_SEVERITY } from './health';
import type { Health } from './types';

export const RELIABILITY_WINDOWS = ['24h', '7d', '30d'] as const;
export type ReliabilityWindow = (typeof RELIABILITY_WINDOWS)[number];

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const WINDOW_SPAN_MS: Readonly<Record<ReliabilityWindow, number>> = Object.freeze({ '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS });

export function isReliabilityWindow(value: unknown): value is ReliabilityWindow {
  return typeof value === 'string' && (RELIABILITY_WINDOWS as readonly string[]).includes(value);
}

export interface Span {
  fromMs: number;
  toMs: number;
}

/** The window ending at `nowMs`: the last 24 h, or whole UTC days and today so far. */
export function reliabilityFrame(window: ReliabilityWindow, nowMs: number): Span {
  const from = window === '24h' ? nowMs - DAY_MS : Math.floor(nowMs / DAY_MS) * DAY_MS - WINDOW_SPAN_MS[window];
  return { fromMs: from, toMs: nowMs };
}

/** Folded rows kept (health_days or health_hours): the first and last start, or null when none. */
export interface FoldedRange {
  firstMs: number;
  lastMs: number;
}

export interface WindowSplit {
  /** Whole folded days [fromMs, toMs) to read from health_days (null: none). */
  days: Span | null;
  /** Whole folded hours to read from health_hours, outside the days (at most two spans). */
  hours: Span[];
  /** The rest, read from the changes: partial hours at the ends, or whatever is not folded (at most two spans). */
  raw: Span[];
}

/** The longest run of whole `unitMs` units of `span` that `folded` holds (null: none). */
function foldedPart(span: Span, folded: FoldedRange | null, unitMs: number): Span | null {
  if (folded === null) return null;
  const fromMs = Math.max(Math.ceil(span.fromMs / unitMs) * unitMs, folded.firstMs);
  const toMs = Math.min(Math.floor(span.toMs / unitMs) * unitMs, folded.lastMs + unitMs);
  return fromMs < toMs ? { fromMs, toMs } : null;
}

/** `span` without `part` (inside it): what is left before and after, empty pieces dropped. */
function around(span: Span, part: Span | null): Span[] {
  const pieces =
    part === null
      ? [span]
      : [
          { fromMs: span.fromMs, toMs: part.fromMs },
          { fromMs: part.toMs, toMs: span.toMs },
        ];
  return pieces.filter((p) => p.fromMs < p.toMs);
}

/**
 * Which parts of `frame` come from the folded days, which from the folded hours, and which from the
 * changes: every instant of the frame in exactly one part.
 */
export function splitWindow(frame: Span, days: FoldedRange | null, hours: FoldedRange | null): WindowSplit {
  const dayPart = foldedPart(frame, days, DAY_MS);
  const split: WindowSplit = { days: dayPart, hours: [], raw: [] };
  for (const rest of around(frame, dayPart)) {
    const hourPart = foldedPart(rest, hours, HOUR_MS);
    if (hourPart !== null) split.hours.push(hourPart);
    split.raw.push(...around(rest, hourPart));
  }
  return split;
}

export type HealthTimes = Record<Health, number>;

export interface Reliability {
  /** Milliseconds of the window the scheduler (or group) existed: the denominator. */
  accountedMs: number;
  /** Milliseconds in each health; `unknown` holds every unjudged moment. */
  spentMs: HealthTimes;
  /** spentMs / accountedMs per health (null when nothing was accounted). */
  fractions: Record<Health, number | null>;
}

const zero = (): HealthTimes => Object.fromEntries(HEALTH_SEVERITY.map((h) => [h, 0])) as HealthTimes;

/**
 * One scheduler's reliability: `stored` is what the rollup holds for it in the
 * window (any subset of healths, ms), `bornMs` its first registration.
 */
export function schedulerReliability(frame: Span, bornMs: number, stored: Partial<HealthTimes>): Reliability {
  const accountedMs = Math.max(0, frame.toMs - Math.max(frame.fromMs, bornMs));
  const spentMs = zero();
  for (const h of HEALTH_SEVERITY) spentMs[h] = Math.max(0, Math.round(stored[h] ?? 0));
  const known = HEALTH_SEVERITY.reduce((sum, h) => sum + spentMs[h], 0);
  // Unjudged time is unknown; an excess (overlapping rows) comes out of unknown, then out of the best healths.
  let excess = known - accountedMs;
  if (excess < 0) spentMs.unknown -= excess;
  for (const h of ['unknown', 'progressing', 'idle', 'disabled'] as const) {
    if (excess <= 0) break;
    const cut = Math.min(excess, spentMs[h]);
    spentMs[h] -= cut;
    excess -= cut;
  }
  return { accountedMs, spentMs, fractions: fractionsOf(spentMs, accountedMs) };
}

/** A group's reliability: the members' times summed (a scheduler that existed longer weighs more). */
export function groupReliability(members: readonly Reliability[]): Reliability {
  const spentMs = zero();
  let accountedMs = 0;
  for (const m of members) {
    accountedMs += m.accountedMs;
    for (const h of HEALTH_SEVERITY) spentMs[h] += m.spentMs[h];
  }
  return { accountedMs, spentMs, fractions: fractionsOf(spentMs, accountedMs) };
}

function fractionsOf(spentMs: HealthTimes, accountedMs: number): Record<Health, number | null> {
  return Object.fromEntries(HEALTH_SEVERITY.map((h) => [h, accountedMs > 0 ? spentMs[h] / accountedMs : null])) as Record<Health, number | null>;
}

/** The healths whose time is not known to be good: a report's "least reliable" sorts by their share. */
const NOT_GOOD = ['stalled', 'no_leader', 'unknown'] as const;

/**
 * Least reliable first: the larger share of time stalled, with no leader or
 * unknown; at equal shares, the more severe health's larger share (stalled
 * before no leader before unknown), then the name. Nothing accounted (null
 * fractions) counts as all unknown: never good by default.
 */
export function leastReliableFirst<T extends { name: string; fractions: Record<Health, number | null> }>(rows: readonly T[]): T[] {
  const share = (row: T, h: Health) => row.fractions[h] ?? (h === 'unknown' ? 1 : 0);
  const bad = (row: T) => NOT_GOOD.reduce((sum, h) => sum + share(row, h), 0);
  return [...rows].sort((a, b) => {
    const byBad = bad(b) - bad(a);
    if (byBad !== 0) return byBad;
    for (const h of NOT_GOOD) {
      const bySeverity = share(b, h) - share(a, h);
      if (bySeverity !== 0) return bySeverity;
    }
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

/**
 * A scheduler's health strip over a window (the overview's history column):
 * wall-clock-aligned cells, each drawn in the worst health seen in it, merged
 * into segments. Pure: no I/O, no clock (`nowMs` is database time).
 *
 * Guarantees
 * - Cells are aligned to multiples of the cell width since the epoch (UTC), so
 *   every row of a page shares one time axis; the window is the `cells` cells
 *   ending with the one that holds `now` (cut at now).
 * - Nothing is drawn before the scheduler existed (`bornMs`, its first
 *   registration) nor before the oldest instant kept (`horizonMs`): a cell
 *   straddling either starts there.
 * - A cell's health is the worst (lib/status severity) of the health carried
 *   into it and every change recorded in it. A minute in which nobody
 *   observed (no evaluator round) makes its cell at least `unknown`, flagged
 *   `notObserved` — a health is never carried across time nobody looked at;
 *   so does a cell after birth with no health recorded yet (the seconds
 *   before the first record inside its cell are the evaluator's lag).
 * - Each segment names the instant to open (`atMs`): when its worst health was
 *   first recorded in it, else its start.
 * Non-guarantees: resolution is the evaluator's round (5 s) inside a cell of
 *   one minute or more; an episode shorter than a round can fall between.
 */
import { healthRank, worstHealth } from './health';
import type { Health } from './types';

export const STRIP_WINDOWS = ['1h', '24h', '7d'] as const;
export type StripWindow = (typeof STRIP_WINDOWS)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Window → cell width and count (60 one-minute cells, 96 quarter hours, 168 hours). */
const STRIP_CELLS: Readonly<Record<StripWindow, { cellMs: number; cells: number; spanMs: number }>> = Object.freeze({
  '1h': { cellMs: MINUTE_MS, cells: 60, spanMs: HOUR_MS },
  '24h': { cellMs: 15 * MINUTE_MS, cells: 96, spanMs: 24 * HOUR_MS },
  '7d': { cellMs: HOUR_MS, cells: 168, spanMs: 7 * 24 * HOUR_MS },
});

export function isStripWindow(value: unknown): value is StripWindow {
  return typeof value === 'string' && (STRIP_WINDOWS as readonly string[]).includes(value);
}

export interface StripFrame {
  window: StripWindow;
  cellMs: number;
  /** Start of the first cell (aligned). */
  fromMs: number;
  /** Now: the end of the last (partial) cell. */
  toMs: number;
  cells: number;
}

/** The window's cells ending at `nowMs`. */
export function stripFrame(window: StripWindow, nowMs: number): StripFrame {
  const { cellMs, cells } = STRIP_CELLS[window];
  const lastStart = Math.floor(nowMs / cellMs) * cellMs;
  return { window, cellMs, fromMs: lastStart - (cells - 1) * cellMs, toMs: nowMs, cells };
}

/** What the rollup says about one cell: the worst change recorded in it (and when), and the last (carried onward). */
export interface CellChanges {
  cell: number;
  worst: Health;
  worstAtMs: number;
  last: Health;
}

export interface StripInput {
  frame: StripFrame;
  /** First registration (null: unknown — drawn from the first recorded change). */
  bornMs: number | null;
  /** The oldest instant kept (history horizon). */
  horizonMs: number;
  /** The newest change at or before `frame.fromMs` (null: none). */
  carried: { health: Health; atMs: number } | null;
  /** Changes per cell, ascending by cell. */
  changes: readonly CellChanges[];
  /** Starts of the minutes in the window in which the rollup observed (any order). */
  observedMinutes: ReadonlySet<number>;
  /** `observedMinutes` as `unobservedCover(frame, observedMinutes)` answers it, shared by every row of a read (optional: the same answer, sooner). */
  unobserved?: (fromMs: number, toMs: number) => boolean;
}

interface StripSegment {
  fromMs: number;
  toMs: number;
  health: Health;
  /** Some minute of it was observed by nobody: drawn unknown whatever else was recorded. */
  notObserved: boolean;
  /** The instant to open for this segment (`?at=`). */
  atMs: number;
}

export interface Strip {
  /** Where drawing starts (null: nothing in the window — born after now or nothing recorded). */
  sinceMs: number | null;
  segments: StripSegment[];
  /** The worst health of the window (null: nothing drawn). */
  worst: Health | null;
}

function unobservedIn(fromMs: number, toMs: number, observed: ReadonlySet<number>): boolean {
  for (let m = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS; m < toMs; m += MINUTE_MS) if (!observed.has(m)) return true;
  return false;
}

/**
 * Whether some minute starting in [fromMs, toMs) is missing from `observed`, as `unobservedIn` says,
 * in O(1) for spans within the frame: one pass over the window's minutes (≤ 10,081 at 7 d) instead of
 * one per cell per row.
 */
export function unobservedCover(frame: StripFrame, observed: ReadonlySet<number>): (fromMs: number, toMs: number) => boolean {
  const first = Math.floor(frame.fromMs / MINUTE_MS) * MINUTE_MS;
  const minutes = Math.max(0, Math.ceil((frame.toMs - first) / MINUTE_MS));
  const missing = new Int32Array(minutes + 1); // missing[k]: unobserved among the first k minutes
  for (let k = 0; k < minutes; k++) missing[k + 1] = missing[k]! + (observed.has(first + k * MINUTE_MS) ? 0 : 1);
  return (fromMs, toMs) => {
    const i = (Math.floor(fromMs / MINUTE_MS) * MINUTE_MS - first) / MINUTE_MS;
    const j = Math.ceil((toMs - first) / MINUTE_MS);
    if (i < 0 || j > minutes) return unobservedIn(fromMs, toMs, observed);
    return j > i && missing[j]! - missing[i]! > 0;
  };
}

export function buildStrip(input: StripInput): Strip {
  const { frame, observedMinutes } = input;
  const unobserved = input.unobserved ?? ((fromMs: number, toMs: number) => unobservedIn(fromMs, toMs, observedMinutes));
  const firstChangeMs = input.carried?.atMs ?? input.changes[0]?.worstAtMs ?? null;
  const bornMs = input.bornMs ?? firstChangeMs;
  if (bornMs === null) return { sinceMs: null, segments: [], worst: null };
  const startMs = Math.max(bornMs, input.horizonMs, frame.fromMs);
  if (startMs >= frame.toMs) return { sinceMs: null, segments: [], worst: null };

  const segments: StripSegment[] = [];
  let current: Health | null = input.carried?.health ?? null;
  let next = 0;
  for (let i = 0; i < frame.cells; i++) {
    const cellStart = frame.fromMs + i * frame.cellMs;
    const cellEnd = Math.min(cellStart + frame.cellMs, frame.toMs);
    while (next < input.changes.length && input.changes[next]!.cell < i) current = input.changes[next++]!.last;
    const recorded = input.changes[next]?.cell === i ? input.changes[next]! : null;
    if (cellEnd <= startMs || cellStart >= cellEnd) continue; // before birth or the horizon: nothing drawn
    const from = Math.max(cellStart, startMs);
    // Before the first recorded health nothing is known; within the cell of that first record, the
    // seconds before it are the evaluator's lag (one round), not time nobody looked at.
    const notObserved = (current === null && recorded === null) || unobserved(from, cellEnd);
    const candidates: Health[] = [];
    if (current !== null) candidates.push(current);
    if (recorded) candidates.push(recorded.worst);
    if (notObserved) candidates.push('unknown');
    const health = worstHealth(candidates)!;
    const atMs = recorded && recorded.worst === health && !(current !== null && healthRank(current) <= healthRank(health)) ? recorded.worstAtMs : from;
    addSegment(segments, { fromMs: from, toMs: cellEnd, health, notObserved, atMs });
    if (recorded) {
      current = recorded.last;
      next++;
    }
  }
  return { sinceMs: startMs, segments, worst: worstHealth(segments.map((s) => s.health)) };
}

function addSegment(segments: StripSegment[], s: StripSegment): void {
  const last = segments[segments.length - 1];
  if (last && last.health === s.health && last.notObserved === s.notObserved && last.toMs === s.fromMs) last.toMs = s.toMs;
  else segments.push(s);
}

/** What ranking needs of one scheduler: no cells, only the window's extremes. */
export interface WindowSummaryInput {
  frame: StripFrame;
  bornMs: number | null;
  horizonMs: number;
  carried: { health: Health; atMs: number } | null;
  /** The worst change recorded inside the window and the first change's instant (null: none). */
  inside: { worst: Health; firstAtMs: number } | null;
  /** The newest minute in the window nobody observed (null: every minute observed). */
  lastUnobservedMinuteMs: number | null;
}

/**
 * The worst health of the window, exactly as `buildStrip` would draw it
 * (its `worst`), from the window's extremes only: what ranks every scheduler
 * without building every strip. Non-guarantee: with a retention shorter than
 * the window (never at the defaults), a change between the window's start and
 * the horizon counts here though it is not drawn.
 */
export function worstInWindow(input: WindowSummaryInput): Health | null {
  const { frame } = input;
  const bornMs = input.bornMs ?? input.carried?.atMs ?? input.inside?.firstAtMs ?? null;
  if (bornMs === null) return null;
  const startMs = Math.max(bornMs, input.horizonMs, frame.fromMs);
  if (startMs >= frame.toMs) return null;
  const candidates: Health[] = [];
  if (input.carried !== null) candidates.push(input.carried.health);
  if (input.inside !== null) candidates.push(input.inside.worst);
  const cellOf = (ms: number) => Math.floor((ms - frame.fromMs) / frame.cellMs);
  // Drawn cells before the first record, with nothing carried in, are unknown (buildStrip: notObserved).
  const unrecordedStart = input.carried === null && (input.inside === null || cellOf(input.inside.firstAtMs) > cellOf(startMs));
  const unobserved = input.lastUnobservedMinuteMs !== null && input.lastUnobservedMinuteMs >= Math.floor(startMs / MINUTE_MS) * MINUTE_MS;
  if (unrecordedStart || unobserved) candidates.push('unknown');
  return worstHealth(candidates);
}

/**
 * Maintenance windows: what one is, when it is open, and whom it covers —
 * the one rule behind the operator's action (lib/actions/maintenance.ts), the
 * alert evaluator's suppression and the "in maintenance" mark the dashboard
 * shows. The database checks the span again (CHECK maintenance_windows_span).
 *
 * A window covers a label selector (./selector.ts) or a list of names, from
 * `startsAt` to `endsAt` (at most MAINTENANCE_SPAN_MAX_MS); a weekly one
 * opens again every 7 × 24 h after `startsAt` for as long (UTC: a daylight-
 * saving change moves it by an hour of local time), until cancelled.
 *
 * Guarantees: pure, `now` is an argument (the database's time); `[from, to)`
 * — open at `from`, closed at `to`. A window changes what a scheduler reads
 * beside its health and what is delivered, never its health or its facts.
 */
import type { Labels } from './labels';
import { matchesSelector, parseSelector, type Selector } from './selector';

const DAY_MS = 86_400_000;
/** Longest window (one occurrence of a weekly one): 30 days. */
const MAINTENANCE_SPAN_MAX_MS = 30 * DAY_MS;
/** A weekly window's period. */
export const WEEK_MS = 7 * DAY_MS;
/** Windows open (or still to come) at once; a create beyond is refused. */
export const MAINTENANCE_OPEN_MAX = 100;
/** Names one window may list. */
export const MAINTENANCE_NAMES_MAX = 100;

export interface MaintenanceWindow {
  id: number;
  /** The selector's text, or null when `schedulers` names them. */
  selector: string | null;
  schedulers: readonly string[] | null;
  startsAtMs: number;
  endsAtMs: number;
  weekly: boolean;
  reason: string;
  by: string;
}

/** Why a span is not a window's, or null when it is one. */
export function spanProblem(startsAtMs: number, endsAtMs: number, weekly: boolean): string | null {
  if (!(endsAtMs > startsAtMs)) return 'endsAt: must be after startsAt';
  if (endsAtMs - startsAtMs > MAINTENANCE_SPAN_MAX_MS) return 'endsAt: a window lasts at most 30 days';
  if (weekly && endsAtMs - startsAtMs >= WEEK_MS) return 'endsAt: a weekly window lasts less than 7 days';
  return null;
}

/** Why a window's target is not one, or null when it is (a selector that parses, or 1–100 names). */
export function targetProblem(selector: string | null, schedulers: readonly string[] | null): string | null {
  if ((selector === null) === (schedulers === null)) return 'a window covers either a selector or a list of schedulers, not both or neither';
  if (selector !== null) {
    if (selector.trim() === '') return 'selector: empty (it would select every scheduler); name what it covers';
    const parsed = parseSelector(selector);
    return parsed.ok ? null : parsed.message;
  }
  if (schedulers!.length === 0 || schedulers!.length > MAINTENANCE_NAMES_MAX) return `schedulers: 1–${MAINTENANCE_NAMES_MAX} names`;
  return null;
}

/** The occurrence of `w` open at `nowMs` (`[from, to)`), or null when it is closed then. */
export function openOccurrence(w: Pick<MaintenanceWindow, 'startsAtMs' | 'endsAtMs' | 'weekly'>, nowMs: number): { fromMs: number; toMs: number } | null {
  if (nowMs < w.startsAtMs) return null;
  const shift = w.weekly ? Math.floor((nowMs - w.startsAtMs) / WEEK_MS) * WEEK_MS : 0;
  const fromMs = w.startsAtMs + shift;
  const toMs = w.endsAtMs + shift;
  return nowMs < toMs ? { fromMs, toMs } : null;
}

/**
 * The occurrences of `w` that overlap [fromMs, toMs], oldest first, each `[from, to)` and cut short where it was
 * cancelled (`cancelled`); an occurrence that would have opened after its cancellation never happened.
 */
export function occurrencesWithin(
  w: Pick<MaintenanceWindow, 'startsAtMs' | 'endsAtMs' | 'weekly'>,
  cancelledAtMs: number | null,
  fromMs: number,
  toMs: number,
): { fromMs: number; toMs: number; cancelled: boolean }[] {
  // The k-th occurrence is [startsAt + k·week, endsAt + k·week): the first that ends after fromMs, the last that opens by toMs.
  const first = w.weekly ? Math.max(0, Math.floor((fromMs - w.endsAtMs) / WEEK_MS) + 1) : 0;
  const last = w.weekly ? Math.floor((toMs - w.startsAtMs) / WEEK_MS) : 0;
  const found: { fromMs: number; toMs: number; cancelled: boolean }[] = [];
  for (let k = first; k <= last; k++) {
    const opens = w.startsAtMs + k * WEEK_MS;
    const closes = w.endsAtMs + k * WEEK_MS;
    if (cancelledAtMs !== null && opens >= cancelledAtMs) break;
    if (closes <= fromMs || opens > toMs) continue;
    const cut = cancelledAtMs !== null && cancelledAtMs < closes;
    found.push({ fromMs: opens, toMs: cut ? cancelledAtMs : closes, cancelled: cut });
  }
  return found;
}

/** A window that is open, with its parsed selector (null: it names schedulers). */
export interface OpenWindow {
  window: MaintenanceWindow;
  selector: Selector | null;
  names: ReadonlySet<string> | null;
  toMs: number;
}

/** The windows open at `nowMs`, ready to match (a stored selector that no longer parses covers nothing). */
export function openWindows(windows: readonly MaintenanceWindow[], nowMs: number): OpenWindow[] {
  const open: OpenWindow[] = [];
  for (const window of windows) {
    const occurrence = openOccurrence(window, nowMs);
    if (occurrence === null) continue;
    if (window.selector !== null) {
      const parsed = parseSelector(window.selector);
      if (parsed.ok) open.push({ window, selector: parsed.selector, names: null, toMs: occurrence.toMs });
    } else {
      open.push({ window, selector: null, names: new Set(window.schedulers ?? []), toMs: occurrence.toMs });
    }
  }
  return open;
}

/** The open window covering a scheduler (the one that closes last, when several do), or null. */
export function coveringWindow(open: readonly OpenWindow[], name: string, labels: Labels): OpenWindow | null {
  let best: OpenWindow | null = null;
  for (const o of open) {
    const covers = o.names !== null ? o.names.has(name) : matchesSelector(o.selector!, labels);
    if (covers && (best === null || o.toMs > best.toMs)) best = o;
  }
  return best;
}

export type WindowPhase = { state: 'open'; toMs: number } | { state: 'scheduled'; nextFromMs: number } | { state: 'ended' } | { state: 'cancelled' };

/** Where a window stands at `nowMs`: open (until when), scheduled (next opening), ended or cancelled. */
export function windowPhase(w: Pick<MaintenanceWindow, 'startsAtMs' | 'endsAtMs' | 'weekly'>, cancelled: boolean, nowMs: number): WindowPhase {
  if (cancelled) return { state: 'cancelled' };
  const open = openOccurrence(w, nowMs);
  if (open !== null) return { state: 'open', toMs: open.toMs };
  if (nowMs < w.startsAtMs) return { state: 'scheduled', nextFromMs: w.startsAtMs };
  if (!w.weekly) return { state: 'ended' };
  return { state: 'scheduled', nextFromMs: w.startsAtMs + (Math.floor((nowMs - w.startsAtMs) / WEEK_MS) + 1) * WEEK_MS };
}

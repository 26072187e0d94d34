/**
 * The overview's strips as drawn: where each segment sits on the shared time
 * axis (percent of the window), the axis ticks, and the words that say what
 * each segment was — the same facts for the eye, the pointer and the screen
 * reader. Pure: the window and the formatting mode are passed in.
 */
import type { StripRow, StripSegmentBody } from '@/lib/api/types';
import type { StripWindow } from '@/lib/status';
import { HEALTH_LOOK } from './health-display';
import { formatInstant, formatTick, offsetMinutesAt, type TimeMode } from './time-zone';

export interface StripAxis {
  fromMs: number;
  toMs: number;
  fromIso: string;
}

export interface PlacedSegment {
  segment: StripSegmentBody;
  /** Percent of the window from its start, and width in percent (at least a visible sliver). */
  left: number;
  width: number;
  /** "No leader, 10:03 – 10:05 GMT+1 (not fully observed)" */
  label: string;
  href: string;
}

/** A segment of a few seconds on a 7-day axis still gets a visible, clickable sliver (2–3 px). */
const MIN_WIDTH_PERCENT = 1.5;

export function axisOf(body: { from: string; to: string }): StripAxis {
  return { fromMs: Date.parse(body.from), toMs: Date.parse(body.to), fromIso: body.from };
}

const percent = (axis: StripAxis, ms: number) => (100 * (ms - axis.fromMs)) / Math.max(1, axis.toMs - axis.fromMs);

export function segmentLabel(s: StripSegmentBody, mode: TimeMode, timeZone?: string): string {
  const from = formatInstant(s.from, mode, { timeZone });
  const to = formatInstant(s.to, mode, { timeZone });
  const [fromDay] = from.split(' ');
  const [toDay, ...toRest] = to.split(' ');
  const toText = fromDay === toDay ? toRest.join(' ') : to;
  return `${HEALTH_LOOK[s.health].label}, ${from} – ${toText}${s.notObserved ? ' (not fully observed)' : ''}`;
}

export function momentHref(name: string, at: string): string {
  return `/schedulers/${encodeURIComponent(name)}?at=${encodeURIComponent(at)}`;
}

export function placeSegments(row: StripRow, axis: StripAxis, mode: TimeMode, timeZone?: string): PlacedSegment[] {
  return row.segments.map((segment) => {
    const left = percent(axis, Date.parse(segment.from));
    const width = Math.max(MIN_WIDTH_PERCENT, percent(axis, Date.parse(segment.to)) - left);
    return { segment, left, width, label: segmentLabel(segment, mode, timeZone), href: momentHref(row.name, segment.at) };
  });
}

const TICK_MS: Record<StripWindow, number> = { '1h': 15 * 60_000, '24h': 6 * 3_600_000, '7d': 24 * 3_600_000 };

/** Ticks on whole quarter hours (1 h), 6 h (24 h) or days (7 d) of the viewer's clock. */
export function axisTicks(window: StripWindow, axis: StripAxis, mode: TimeMode, timeZone?: string): { left: number; label: string }[] {
  const step = TICK_MS[window];
  // Align to the displayed zone: shift by its offset at the window's start (UTC: none).
  const offsetMs = mode === 'utc' ? 0 : zoneOffsetMs(axis.fromMs, timeZone);
  const first = Math.ceil((axis.fromMs + offsetMs) / step) * step - offsetMs;
  const ticks: { left: number; label: string }[] = [];
  for (let t = first; t <= axis.toMs; t += step) ticks.push({ left: percent(axis, t), label: formatTick(t, mode, window === '7d', timeZone) });
  return ticks;
}

/** The zone's offset from UTC at `ms` (ms; positive east of Greenwich). */
function zoneOffsetMs(ms: number, timeZone?: string): number {
  return offsetMinutesAt(ms, timeZone) * 60_000;
}

/** The row's facts in one sentence, for screen readers and the keyboard. */
export function stripSummary(row: StripRow, windowLabel: string, mode: TimeMode, timeZone?: string): string {
  if (row.worst === null) return `No history in the last ${windowLabel}.`;
  const born = row.registeredAt !== null && row.since === row.registeredAt ? ` Registered at ${formatInstant(row.registeredAt, mode, { timeZone })}.` : '';
  const episodes = row.segments.filter((s) => s.health !== 'progressing' && s.health !== 'idle').length;
  return `Last ${windowLabel}: worst ${HEALTH_LOOK[row.worst].label.toLowerCase()}; ${episodes} episode${episodes === 1 ? '' : 's'} not healthy.${born}`;
}

export const WINDOW_LABEL: Record<StripWindow, string> = { '1h': 'hour', '24h': '24 hours', '7d': '7 days' };

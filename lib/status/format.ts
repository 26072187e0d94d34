/**
 * Human formatting of durations, instants and fractions, shared by the
 * projection's reasons and the UI.
 *
 * Guarantees: pure and deterministic (no clock, no locale: the same input
 * gives the same text on the server and in any browser); negative durations
 * keep their sign; non-finite input renders as "?" rather than "NaN".
 * Non-guarantees: coarse units truncate (59.9 s → "59 s", 11 min 59 s →
 * "11 min"), so compare numbers, never formatted text.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function unitPair(ms: number, big: number, bigName: string, small: number, smallName: string): string {
  const a = Math.floor(ms / big);
  const b = Math.floor((ms % big) / small);
  return b === 0 ? `${a} ${bigName}` : `${a} ${bigName} ${b} ${smallName}`;
}

/**
 * A duration in ms as short text: "850 ms", "1.2 s", "59 s", "1 min 30 s",
 * "11 min", "2 h 5 min", "3 d 4 h". Below 10 min seconds are kept.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  if (ms < 0) return `−${formatDuration(-ms)}`;
  const whole = Math.floor(ms);
  if (whole < SECOND) return `${whole} ms`;
  if (whole < 10 * SECOND) {
    const tenths = Math.floor(whole / 100) / 10;
    return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)} s`;
  }
  if (whole < MINUTE) return `${Math.floor(whole / SECOND)} s`;
  if (whole < 10 * MINUTE) return unitPair(whole, MINUTE, 'min', SECOND, 's');
  if (whole < HOUR) return `${Math.floor(whole / MINUTE)} min`;
  if (whole < DAY) return unitPair(whole, HOUR, 'h', MINUTE, 'min');
  return unitPair(whole, DAY, 'd', HOUR, 'h');
}

/** An age: "1.2 s ago"; a negative age (a time after now) reads "in 1.2 s". */
export function formatAgo(ageMs: number): string {
  return ageMs < 0 ? `in ${formatDuration(-ageMs)}` : `${formatDuration(ageMs)} ago`;
}

/** Time until something: "in 13 s"; a negative value reads "13 s ago". */
export function formatIn(untilMs: number): string {
  return formatAgo(-untilMs);
}

/** Time of day in UTC from an ISO timestamp: "11:59:30Z" ("?" if unparseable). */
const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function formatClock(iso: string): string {
  // Database times are already UTC ISO: slice, don't parse (hot in reasons at 10,000 schedulers).
  if (UTC_ISO.test(iso)) return `${iso.slice(11, 19)}Z`;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '?';
  return `${new Date(ms).toISOString().slice(11, 19)}Z`;
}

/** A fraction as a whole percentage: 2/3 → "67%". */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return '?';
  return `${Math.round(fraction * 100)}%`;
}

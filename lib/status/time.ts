/**
 * Time arithmetic on database timestamps, for the pure projection.
 *
 * Guarantees: never reads a clock (`new Date` only ever gets an argument);
 * an unparseable timestamp throws `StatusInputError` naming the field instead
 * of turning into NaN and silently failing every comparison.
 * Non-guarantees: sub-millisecond precision of the database is dropped.
 */

/** A fault in the projection's input (thresholds or facts); a programming error upstream. */
export class StatusInputError extends Error {
  override readonly name = 'StatusInputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(`status: ${message}`, options);
  }
}

// A small ring of recent parses: one projection reads the same few fields
// several times (expiresAt by both axes, report times by rule and by field).
const RING = 8;
const ringIso: string[] = new Array<string>(RING).fill('');
const ringMs: number[] = new Array<number>(RING).fill(0);
let ringNext = 0;

/** Epoch milliseconds of an ISO-8601 timestamp; throws on anything unparseable. */
export function toMs(field: string, iso: string): number {
  for (let i = 0; i < RING; i++) if (ringIso[i] === iso) return ringMs[i]!;
  const ms = parseUtcFast(iso) ?? Date.parse(iso);
  if (!Number.isFinite(ms)) throw new StatusInputError(`${field} is not an ISO-8601 time: ${JSON.stringify(iso)}`);
  ringIso[ringNext] = iso;
  ringMs[ringNext] = ms;
  ringNext = (ringNext + 1) % RING;
  return ms;
}

let lastIsoMs = Number.NaN;
let lastIso = '';

/** Canonical ISO-8601 UTC form (`2026-11-30T12:00:00.000Z`). */
export function toIso(ms: number): string {
  // One-entry memo: a list projects thousands of schedulers at the same `now`.
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIso;
}

const digit = (s: string, i: number): number => {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : Number.NaN;
};
const two = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1);

/**
 * Fast path for what the database clock gives (`YYYY-MM-DDTHH:MM:SS[.f…]Z`):
 * Date.parse dominates the projection's profile at 10,000 schedulers. Any
 * other shape returns null and goes to Date.parse; sub-ms digits are dropped.
 */
function parseUtcFast(s: string): number | null {
  const end = s.length - 1;
  if (end < 19 || s.charCodeAt(end) !== 90 /* Z */ || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') return null;
  let ms = 0;
  if (end > 19) {
    if (s[19] !== '.' || end === 20) return null;
    for (let i = 20; i < end; i++) {
      const d = digit(s, i);
      if (Number.isNaN(d)) return null;
      if (i < 23) ms += d * (i === 20 ? 100 : i === 21 ? 10 : 1);
    }
  }
  const year = two(s, 0) * 100 + two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59) || Number.isNaN(year)) return null;
  // Reject impossible dates (Feb 30) that Date.UTC would roll over.
  if (day > 28 && day > daysInMonth(year, month)) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

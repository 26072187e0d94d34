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

/** Epoch milliseconds of an ISO-8601 timestamp; throws on anything unparseable. */
export function toMs(field: string, iso: string): number {
  const ms = parseUtcFast(iso) ?? Date.parse(iso);
  if (!Number.isFinite(ms)) throw new StatusInputError(`${field} is not an ISO-8601 time: ${JSON.stringify(iso)}`);
  return ms;
}

let lastNowIso = '';
let lastNowMs = 0;

/** `toMs` for the projection's `now`, memoised: a list projects thousands of schedulers at one `now`. */
export function nowToMs(now: string): number {
  if (now !== lastNowIso) {
    lastNowMs = toMs('now', now);
    lastNowIso = now;
  }
  return lastNowMs;
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

/** Two decimal digits at `i`, or -1 when either is not a digit. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Fast path for what the database clock gives (`YYYY-MM-DDTHH:MM:SS[.f…]Z`):
 * Date.parse dominated the projection's profile at 10,000 schedulers. Any
 * other shape returns null and goes to Date.parse; sub-ms digits are dropped.
 */
function parseUtcFast(s: string): number | null {
  const end = s.length - 1;
  if (
    end < 19 ||
    s.charCodeAt(end) !== 90 /* Z */ ||
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58
  ) {
    return null;
  }
  let ms = 0;
  if (end > 19) {
    if (s.charCodeAt(19) !== 46 /* . */ || end === 20) return null;
    for (let i = 20, scale = 100; i < end; i++, scale /= 10) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return null;
      if (scale >= 1) ms += d * scale;
    }
  }
  const century = two(s, 0);
  const yy = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (century < 0 || yy < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59)
    return null;
  const year = century * 100 + yy;
  // Reject impossible dates (Feb 30) rather than rolling them over.
  if (day > 28 && day > daysInMonth(year, month)) return null;
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
}

/**
 * The viewer's time display, remembered in a cookie so that the server can
 * render times as the browser will show them (no other text at hydration).
 * Written by the browser (lib/client/time-zone.ts) after each page load and
 * at each switch; read by the root layout, and part of the overview page
 * cache's key (lib/host/page-cache.ts).
 *
 * Value: `utc`, or the browser's IANA zone (`Europe/Berlin`) for local time.
 * Guarantees: a value that is not `utc` nor a zone this runtime knows reads
 * as absent (null), and absent means UTC, labelled as UTC; never a guess.
 * The cookie changes only text: instants and `?at=` links stay UTC.
 */

export const TIME_COOKIE = 'leaseboard-time';

export type TimeChoice = { mode: 'utc' } | { mode: 'local'; timeZone: string };

const known = new Map<string, boolean>();

/** Whether `zone` is an IANA zone this runtime can format in (cached; at most 64 remembered). */
function isKnownTimeZone(zone: string): boolean {
  let ok = known.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      ok = zone.length <= 64;
    } catch {
      ok = false;
    }
    if (known.size >= 64) known.clear();
    known.set(zone, ok);
  }
  return ok;
}

/** The choice a cookie value says, or null (absent, or not understood). */
export function parseTimeChoice(value: string | undefined | null): TimeChoice | null {
  if (!value) return null;
  if (value === 'utc') return { mode: 'utc' };
  let zone: string;
  try {
    zone = decodeURIComponent(value);
  } catch {
    return null;
  }
  return isKnownTimeZone(zone) ? { mode: 'local', timeZone: zone } : null;
}

export function timeChoiceValue(choice: TimeChoice): string {
  return choice.mode === 'utc' ? 'utc' : encodeURIComponent(choice.timeZone);
}

/** The cookie's raw value in a Cookie request header, or null. */
export function timeCookieIn(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === TIME_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}

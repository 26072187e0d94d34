/**
 * Absolute times as the viewer asked: in the browser's own zone (default) or
 * in UTC, remembered in localStorage and in a cookie (lib/api/time-cookie.ts).
 * The instants themselves are always the server's UTC ISO strings (and `?at=`
 * links stay UTC); only the text differs.
 *
 * Guarantees: the server renders with the choice its cookie names (mode and
 * zone), and hydration renders the same (TimeChoiceProvider starts from it),
 * so a returning viewer's HTML already shows local time and no text changes
 * at hydration. Without the cookie (a first visit) the server shows UTC,
 * labelled as UTC, and the local time replaces it right after mount: the
 * same instant. That switch never runs inside hydration: the browser's zone
 * is read (Intl's first use, tens of milliseconds on a phone) in a task of
 * its own after mount, and the new times render in a transition React
 * slices into short tasks. After each mount and each switch the browser
 * writes the cookie. Formatting is pure given the zone (tests pass one:
 * `timeZone`).
 * Non-guarantees: a browser without Intl time-zone support shows UTC; a
 * viewer whose zone changed since the cookie sees the old zone until mount.
 */
import { createContext, createElement, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { TIME_COOKIE, timeChoiceValue, type TimeChoice } from '@/lib/api/time-cookie';
import { formatUtc } from './format';

export type TimeMode = 'local' | 'utc';

const STORAGE_KEY = 'leaseboard.time';
const COOKIE_MAX_AGE_S = 365 * 24 * 3600;
/** The mounted provider's "the viewer switched" callbacks (one per page). */
const listeners = new Set<() => void>();

function readMode(): TimeMode {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    return 'local';
  }
}

let zone: string | undefined;

/** The browser's IANA zone ('UTC' when it cannot tell). */
export function browserTimeZone(): string {
  return (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

function writeCookie(choice: TimeChoice): void {
  document.cookie = `${TIME_COOKIE}=${timeChoiceValue(choice)}; path=/; max-age=${COOKIE_MAX_AGE_S}; samesite=lax`;
}

export function setTimeMode(mode: TimeMode): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, mode);
  } catch {
    // storage refused (private mode): the switch still applies for this page
  }
  for (const listener of listeners) listener();
}

/** What every time on the page is shown in: the mode, and for local time the zone (undefined: UTC mode). */
interface ShownTime {
  mode: TimeMode;
  timeZone: string | undefined;
}

const fromServer = (choice: TimeChoice | null): ShownTime =>
  choice?.mode === 'local' ? { mode: 'local', timeZone: choice.timeZone } : { mode: 'utc', timeZone: undefined };

const TimeShown = createContext<ShownTime>(fromServer(null));

/** The browser's choice: its stored mode, and its zone when that mode is local. */
function browserChoice(): TimeChoice {
  return readMode() === 'utc' ? { mode: 'utc' } : { mode: 'local', timeZone: browserTimeZone() };
}

/**
 * Around every page (components/providers.tsx): renders with `server`, the choice the server
 * rendered with (its cookie; null: none, UTC), then, after mount and at each switch (here or in
 * another tab), with the browser's — and writes that choice to the cookie.
 */
export function TimeChoiceProvider({ server, children }: { server: TimeChoice | null; children: ReactNode }) {
  const [shown, setShown] = useState(() => fromServer(server));
  useEffect(() => {
    const apply = () => {
      const choice = browserChoice();
      writeCookie(choice);
      const next = fromServer(choice);
      startTransition(() => setShown((prev) => (prev.mode === next.mode && prev.timeZone === next.timeZone ? prev : next)));
    };
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEY) apply();
    };
    // Not in hydration's own task: Intl's first use and the new times' render come after it.
    const timer = setTimeout(apply, 0);
    listeners.add(apply);
    window.addEventListener('storage', onStorage);
    return () => {
      clearTimeout(timer);
      listeners.delete(apply);
      window.removeEventListener('storage', onStorage);
    };
  }, []);
  return createElement(TimeShown.Provider, { value: shown }, children);
}

/** The viewer's choice; on the server and during hydration, the one the server rendered with (UTC without a cookie). */
export function useTimeMode(): TimeMode {
  return useContext(TimeShown).mode;
}

/** The zone local times are shown in: the browser's; on the server and during hydration, the cookie's (undefined in UTC mode). */
export function useTimeZone(): string | undefined {
  return useContext(TimeShown).timeZone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined, seconds: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${seconds}`;
  let f = formatters.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(key, f);
  }
  return f;
}

/** "2026-12-02 11:30:03 GMT+1" in `timeZone` (undefined: the browser's), or the UTC form for mode 'utc'. */
export function formatInstant(iso: string, mode: TimeMode, options: { timeZone?: string; seconds?: boolean; clockOnly?: boolean } = {}): string {
  const full = formatFull(iso, mode, options);
  return options.clockOnly ? full.slice(full.indexOf(' ') + 1) : full;
}

function formatFull(iso: string, mode: TimeMode, options: { timeZone?: string; seconds?: boolean }): string {
  const seconds = options.seconds ?? true;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  if (mode === 'utc') return seconds ? formatUtc(iso) : formatUtc(iso).replace(/:\d\dZ$/, 'Z');
  const parts = formatterFor(options.timeZone, seconds).formatToParts(ms);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const clock = seconds ? `${get('hour')}:${get('minute')}:${get('second')}` : `${get('hour')}:${get('minute')}`;
  return `${get('year')}-${get('month')}-${get('day')} ${clock} ${get('timeZoneName')}`;
}

/** "11:30" in the zone (UTC: "10:30Z"), with "MM-DD" before it when asked: axis ticks. */
export function formatTick(ms: number, mode: TimeMode, withDay: boolean, timeZone?: string): string {
  const full = formatInstant(new Date(ms).toISOString(), mode, { timeZone, seconds: false });
  const [day, clock] = full.split(' ');
  return withDay ? `${day!.slice(5)} ${clock}` : clock!; // MM-DD hh:mm
}

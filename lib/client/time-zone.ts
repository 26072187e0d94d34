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
 * same instant. That switch never runs inside hydration: it comes in a task
 * of its own after mount, and the new times render in a transition React
 * slices into short tasks. After each mount and each switch the browser
 * writes the cookie. Formatting is pure given the zone (tests pass one:
 * `timeZone`); a zone is labelled by its offset at that instant ("GMT+5:30",
 * "UTC" for none), the same text wherever it is formatted. The browser
 * formats its own zone with Date's local fields and reads the zone's name
 * from Temporal where it has one: no Intl on a phone's load (Intl's first use
 * costs tens of milliseconds there); the server uses Intl with the cookie's
 * zone.
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

/** The browser's IANA zone ('UTC' when it cannot tell): from Temporal where the browser has it (no cost), else Intl. */
function browserTimeZone(): string {
  return (zone ??= readBrowserZone());
}

function readBrowserZone(): string {
  const temporal = (globalThis as { Temporal?: { Now?: { timeZoneId?: () => string } } }).Temporal;
  try {
    const id = temporal?.Now?.timeZoneId?.();
    if (id) return id;
  } catch {
    // fall back to Intl
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
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

/** A wall-clock reading of an instant in some zone, and that zone's offset from UTC then (minutes east). */
interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number;
}

/** In the browser's own zone: Date's local fields, no Intl (its first use costs a phone tens of milliseconds). */
function wallClockHere(ms: number): WallClock {
  const d = new Date(ms);
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
    offsetMinutes: -d.getTimezoneOffset(),
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** In a named zone (the server, with the zone its cookie names; tests): Intl, the offset from its "GMT+05:30". */
function wallClockIn(ms: number, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(ms);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  const offset = /([+-])(\d\d):(\d\d)/.exec(parts.find((p) => p.type === 'timeZoneName')?.value ?? '');
  const offsetMinutes = offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0;
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second'), offsetMinutes };
}

/** The offset from UTC of `timeZone` (undefined: the browser's) at `ms`, in minutes east of Greenwich. */
export function offsetMinutesAt(ms: number, timeZone?: string): number {
  return wallClock(ms, timeZone).offsetMinutes;
}

/** `ms` in `timeZone` (undefined: the browser's): Date's local fields for the browser's own zone, else Intl. */
function wallClock(ms: number, timeZone: string | undefined): WallClock {
  return isBrowserZone(timeZone) ? wallClockHere(ms) : wallClockIn(ms, timeZone ?? 'UTC');
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** "GMT+1", "GMT+5:30", "GMT-3", "UTC" (no offset): the zone as its offset, the same text on the server and in the browser. */
export function offsetLabel(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const abs = Math.abs(offsetMinutes);
  const minutes = abs % 60;
  return `GMT${offsetMinutes < 0 ? '-' : '+'}${Math.floor(abs / 60)}${minutes === 0 ? '' : `:${pad2(minutes)}`}`;
}

/** "2026-12-02 11:30:03 GMT+1" in `timeZone` (undefined: the browser's), or the UTC form for mode 'utc'. */
export function formatInstant(iso: string, mode: TimeMode, options: { timeZone?: string; seconds?: boolean; clockOnly?: boolean } = {}): string {
  const full = formatFull(iso, mode, options);
  return options.clockOnly ? full.slice(full.indexOf(' ') + 1) : full;
}

/** Whether `timeZone` is this browser's own (always false on the server). */
function isBrowserZone(timeZone: string | undefined): boolean {
  return typeof window !== 'undefined' && (timeZone === undefined || timeZone === browserTimeZone());
}

function formatFull(iso: string, mode: TimeMode, options: { timeZone?: string; seconds?: boolean }): string {
  const seconds = options.seconds ?? true;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  if (mode === 'utc') return seconds ? formatUtc(iso) : formatUtc(iso).replace(/:\d\dZ$/, 'Z');
  const w = wallClock(ms, options.timeZone);
  const clock = `${pad2(w.hour)}:${pad2(w.minute)}${seconds ? `:${pad2(w.second)}` : ''}`;
  return `${w.year}-${pad2(w.month)}-${pad2(w.day)} ${clock} ${offsetLabel(w.offsetMinutes)}`;
}

/** "11:30" in the zone (UTC: "10:30Z"), with "MM-DD" before it when asked: axis ticks. */
export function formatTick(ms: number, mode: TimeMode, withDay: boolean, timeZone?: string): string {
  const full = formatInstant(new Date(ms).toISOString(), mode, { timeZone, seconds: false });
  const [day, clock] = full.split(' ');
  return withDay ? `${day!.slice(5)} ${clock}` : clock!; // MM-DD hh:mm
}

/**
 * Absolute times as the viewer asked: in the browser's own zone (default) or
 * in UTC, remembered in localStorage. The instants themselves are always the
 * server's UTC ISO strings (and `?at=` links stay UTC); only the text differs.
 *
 * Guarantees: the server render and the first client render use UTC (the
 * server cannot know the viewer's zone), so hydration never mismatches; the
 * remembered choice applies right after mount (`useTimeMode`). Formatting is
 * pure given the zone (tests pass one: `timeZone`).
 * Non-guarantees: a browser without Intl time-zone support shows UTC.
 */
import { useSyncExternalStore } from 'react';
import { formatUtc } from './format';

export type TimeMode = 'local' | 'utc';

const STORAGE_KEY = 'leaseboard.time';
const listeners = new Set<() => void>();

function readMode(): TimeMode {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    return 'local';
  }
}

export function setTimeMode(mode: TimeMode): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, mode);
  } catch {
    // storage refused (private mode): the switch still applies for this page
  }
  current = mode;
  for (const listener of listeners) listener();
}

let current: TimeMode | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === STORAGE_KEY) {
      current = readMode();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The viewer's choice; 'utc' on the server and during hydration. */
export function useTimeMode(): TimeMode {
  return useSyncExternalStore(
    subscribe,
    () => (current ??= readMode()),
    () => 'utc',
  );
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

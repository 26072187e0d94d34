/**
 * The browser as an observer: how long ago, on the local clock, the data on
 * screen was observed, ticking once a second; and whether it is too old to be
 * shown as anything but unknown (older than two poll intervals).
 *
 * Guarantees:
 * - During the server render and the hydration render `now` is null, so ages
 *   render exactly as the server computed them (no hydration mismatch); ticks
 *   then render as transitions (interruptible, in slices).
 * - Data fetched by the browser is dated by when its request was SENT; data
 *   rendered into the initial document by when the document was requested;
 *   data rendered by the server for a later client navigation by when it
 *   first appeared. All three are no later than the true observation, so a
 *   ticking age is never younger than the truth.
 * - The ticker also ticks at once when the tab becomes visible or the network
 *   comes back, so a woken laptop never shows a fresh-looking age. It does not
 *   tick while the tab is hidden (nothing is visible there).
 * - One ticker per page: the ticking leaves (components/ticking-text.tsx)
 *   listen with `onTick` and write their own text in place, without a React
 *   render; the few components that must re-render each second use `useLocalNow`.
 */
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import type { Observed } from './api';
import { documentRequestStamp, elapsedSince, localNow, type LocalStamp } from './local-clock';

// ---------------------------------------------------------------- the 1 s ticker

const listeners = new Set<() => void>();
let current: LocalStamp | null = null;
let timer: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  current = localNow();
  for (const listener of listeners) listener();
}

/** Ticks every second while the tab is visible; at once when it becomes visible again. */
function onVisibility(): void {
  clearInterval(timer);
  timer = document.hidden ? undefined : setInterval(tick, 1_000);
  tick();
}

function start(): void {
  current = localNow();
  timer = document.hidden ? undefined : setInterval(tick, 1_000);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', tick);
  window.addEventListener('online', tick);
  window.addEventListener('offline', tick);
}

function stop(): void {
  clearInterval(timer);
  timer = undefined;
  document.removeEventListener('visibilitychange', onVisibility);
  window.removeEventListener('focus', tick);
  window.removeEventListener('online', tick);
  window.removeEventListener('offline', tick);
}

/** Calls `listener` on every tick (outside React); returns the unsubscribe. */
export function onTick(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) start();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) stop();
  };
}

/**
 * The local clock, re-read every second; null on the server and while hydrating.
 * Each tick re-renders the caller (as a transition): keep it to the few parts
 * that cannot write their text in place (the page's "observed … ago" line).
 */
function useLocalNow(): LocalStamp | null {
  const [now, setNow] = useState<LocalStamp | null>(null);
  useEffect(() => {
    const listener = () => startTransition(() => setNow(current));
    const unsubscribe = onTick(listener);
    listener(); // the first value, right after hydration
    return unsubscribe;
  }, []);
  return now;
}

// ---------------------------------------------------------------- when data was observed

const serverRenderedStamps = new WeakMap<object, LocalStamp>();
let initialDocument = true;

/**
 * Called (in render) by the root provider when the route changes on the
 * client: server-rendered data seen from then on came with a client
 * navigation, not with the document.
 */
export function noteClientNavigation(): void {
  initialDocument = false;
}

/** Remember, in render, when server-rendered data was first seen (browser only). */
function observedStamp(data: Observed<unknown>): LocalStamp | null {
  if (data.via === 'browser') return data.sentAt;
  if (typeof window === 'undefined') return null;
  let stamp = serverRenderedStamps.get(data);
  if (!stamp) {
    stamp = initialDocument ? documentRequestStamp() : localNow();
    serverRenderedStamps.set(data, stamp);
  }
  return stamp;
}

export const STALE_AFTER_POLL_INTERVALS = 2;

/** When the data on screen was observed, on the local clock (null on the server). Stable per answer. */
export function useObservedStamp(data: Observed<unknown> | undefined): LocalStamp | null {
  return data ? observedStamp(data) : null;
}

/**
 * Local time since `stamp`, re-rendering the caller every second; null on the
 * server, while hydrating, and when not live (an "as of" page never ticks).
 * Use it in small leaf components: whatever calls it renders every second.
 */
export function useElapsedMs(stamp: LocalStamp | null, live: boolean): number | null {
  const ticked = useLocalNow();
  if (!live || ticked === null || stamp === null) return null;
  // The tick only schedules renders; read the clock now, since the data may
  // have arrived (been sent, even) after the last tick.
  return elapsedSince(stamp, localNow());
}

/**
 * Whether the observation is older than `thresholdMs`; re-renders the caller
 * only when that flips (not every second). False on the server, while
 * hydrating, and when not live.
 */
export function useIsStale(stamp: LocalStamp | null, thresholdMs: number, live: boolean): boolean {
  return useSyncExternalStore(
    onTick,
    () => live && stamp !== null && current !== null && elapsedSince(stamp, current) > thresholdMs,
    () => false,
  );
}

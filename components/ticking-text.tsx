'use client';
/**
 * Small ticking leaves. They render the server's value (so the server and the
 * hydration render agree); then, while the page is live and fresh, the page's
 * one 1 s ticker writes their text and data attribute in place, without a
 * React render: a page of 100 rows ticks 300 text nodes, not 300 components.
 * Each leaf advances its own server value by the local time since the
 * observation that value came from (the nearest ObservationProvider's stamp),
 * so a row that did not re-render with a newer answer still ticks correctly.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { elapsedSince, localNow } from '@/lib/client/local-clock';
import { onTick } from '@/lib/client/observation-clock';
import { advance } from '@/lib/client/status-view';
import { formatAgo, formatDuration, formatIn } from '@/lib/status';
import { useObservation } from './observation-context';

export interface TickingProps {
  /** The server's value at observation (ms). */
  serverMs: number | null;
  /** Shown when there is no value at all (never happened). */
  none?: string;
  /** Shown when the value exists but cannot be known now (stale observation). */
  unknown?: string;
  testId?: string;
  className?: string;
}

type Write = (element: HTMLElement, ms: number) => void;

function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

const ageText = (ms: number) => formatAgo(ms);
const expiryText = (ms: number) => `${ms >= 0 ? 'expires' : 'expired'} ${formatIn(ms)}`;

const writeAge: Write = (element, ms) => {
  setText(element, ageText(ms));
  element.dataset.ageMs = String(ms);
};
const writeExpiry: Write = (element, ms) => {
  setText(element, expiryText(ms));
  element.dataset.expiresInMs = String(ms);
};
const writeDuration: Write = (element, ms) => setText(element, formatDuration(ms));

/**
 * The value to render: the server's (`since` 0) while the observation backs it,
 * null (unknown) when this page's observation is stale or the store was unreadable.
 */
function useRenderedMs(serverMs: number | null, sign: 1 | -1): number | null {
  const { stale, storeOk } = useObservation();
  return advance(serverMs, stale || !storeOk ? null : 0, sign);
}

/** Before paint and on every tick, writes the advanced value into `ref` while live and fresh. */
function useTickInPlace(ref: RefObject<HTMLElement | null>, serverMs: number | null, sign: 1 | -1, write: Write, ticking = true): void {
  const { stamp, live, stale, storeOk } = useObservation();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !ticking || !live || stale || !storeOk || stamp === null || serverMs === null) return;
    // Read the clock at each write: the data may have arrived (been sent, even) after the last tick.
    const update = () => write(element, advance(serverMs, elapsedSince(stamp, localNow()), sign)!);
    update();
    return onTick(update);
  }, [ref, serverMs, sign, write, ticking, stamp, live, stale, storeOk]);
}

/** "1.2 s ago", ticking. */
export function AgeText({ serverMs, none = '—', unknown = 'unknown', testId, className }: TickingProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const ms = useRenderedMs(serverMs, 1);
  useTickInPlace(ref, serverMs, 1, writeAge);
  return (
    <span ref={ref} className={className} data-testid={testId} data-age-ms={ms ?? undefined}>
      {serverMs === null ? none : ms === null ? unknown : ageText(ms)}
    </span>
  );
}

/** "expires in 2.3 s" / "expired 0.4 s ago", counting down. */
export function ExpiryText({ serverMs, none = '\u00a0', unknown = 'expiry unknown', testId, className }: TickingProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const ms = useRenderedMs(serverMs, -1);
  useTickInPlace(ref, serverMs, -1, writeExpiry);
  return (
    <span ref={ref} className={className} data-testid={testId} data-expires-in-ms={ms ?? undefined}>
      {serverMs === null ? none : ms === null ? unknown : expiryText(ms)}
    </span>
  );
}

/** A duration that grows while something lasts (an open gap), fixed otherwise. */
export function DurationText({ serverMs, growing }: { serverMs: number; growing: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  useTickInPlace(ref, serverMs, 1, writeDuration, growing);
  return <span ref={ref}>{formatDuration(serverMs)}</span>;
}

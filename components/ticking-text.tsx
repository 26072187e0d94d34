'use client';
/** Small ticking leaves: the only parts of a page that re-render every second. */
import { formatAgo, formatDuration, formatIn } from '@/lib/status';
import { useTickingMs } from './observation-context';

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

/** "1.2 s ago", ticking. */
export function AgeText({ serverMs, none = '—', unknown = 'unknown', testId, className }: TickingProps) {
  const ms = useTickingMs(serverMs);
  return (
    <span className={className} data-testid={testId} data-age-ms={ms ?? undefined}>
      {serverMs === null ? none : ms === null ? unknown : formatAgo(ms)}
    </span>
  );
}

/** "expires in 2.3 s" / "expired 0.4 s ago", counting down. */
export function ExpiryText({ serverMs, none = '\u00a0', unknown = 'expiry unknown', testId, className }: TickingProps) {
  const ms = useTickingMs(serverMs, -1);
  const text = serverMs === null ? none : ms === null ? unknown : `${ms >= 0 ? 'expires' : 'expired'} ${formatIn(ms)}`;
  return (
    <span className={className} data-testid={testId} data-expires-in-ms={ms ?? undefined}>
      {text}
    </span>
  );
}

/** A duration that grows while something lasts (an open gap), fixed otherwise. */
export function DurationText({ serverMs, growing }: { serverMs: number; growing: boolean }) {
  const ms = useTickingMs(serverMs);
  return <>{formatDuration(growing && ms !== null ? ms : serverMs)}</>;
}

'use client';
/**
 * What every ticking value on a page needs to know about the observation on
 * screen: when it was observed (local clock), whether the page is live, and
 * whether the observation is stale. Rows stay memoised; only the small
 * ticking leaves below re-render every second.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { LocalStamp } from '@/lib/client/local-clock';
import { useElapsedMs } from '@/lib/client/observation-clock';
import { advance } from '@/lib/client/status-view';

export interface ObservationState {
  stamp: LocalStamp | null;
  live: boolean;
  /** This page's own observation is too old. */
  stale: boolean;
  /** The service read its store for this answer (false: every age is unknown). */
  storeOk: boolean;
}

const ObservationContext = createContext<ObservationState>({ stamp: null, live: false, stale: false, storeOk: true });

export function ObservationProvider({ value, children }: { value: ObservationState; children: ReactNode }) {
  return <ObservationContext.Provider value={value}>{children}</ObservationContext.Provider>;
}

export function useObservation(): ObservationState {
  return useContext(ObservationContext);
}

/**
 * Local ms since the observation (0 before ticking and when not live); null
 * when no age can be claimed: this page's observation is stale, or the service
 * could not read its store (the last known values may have moved on since).
 */
export function useSinceObserved(): number | null {
  const { stamp, live, stale, storeOk } = useObservation();
  const elapsed = useElapsedMs(stamp, live);
  return stale || !storeOk ? null : (elapsed ?? 0);
}

/**
 * A server age advanced by the local time since observation: the server's
 * value on first render, then ticking; null (unknown) when stale or absent.
 * `sign: -1` counts down (time to expiry).
 */
export function useTickingMs(serverMs: number | null, sign: 1 | -1 = 1): number | null {
  return advance(serverMs, useSinceObserved(), sign);
}

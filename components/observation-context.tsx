'use client';
/**
 * What every ticking value on a page needs to know about the observation on
 * screen: when it was observed (local clock), whether the page is live, and
 * whether the observation is stale. Rows stay memoised, and the small ticking
 * leaves below write their text in place every second (components/ticking-text.tsx).
 * A memoised overview row provides its own (its stamp is the one its values
 * came with), so a newer answer re-renders only the rows whose facts changed.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { LocalStamp } from '@/lib/client/local-clock';

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

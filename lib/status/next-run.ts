/**
 * When a scheduler's next occurrence starts (pure: `nowMs` is database time).
 *
 * Guarantees: slots are multiples of the cadence since the epoch (UTC), as
 * the runtime computes them (lib/scheduler/work-loop.ts); the current slot
 * not yet started is due now (the holder claims it at its next pass); once
 * started (running, or ended) the next slot is the next multiple — the
 * running one is a run, shown with the runs, not what starts next. Without a known cadence (never
 * registered) the answer is "whenever the holder next runs", never a guess.
 */
export type NextRun = { kind: 'slot'; atMs: number; due: boolean } | { kind: 'whenever' };

export function nextRun(everyMs: number | null, nowMs: number, currentSlotStarted: boolean): NextRun {
  if (everyMs === null || !(everyMs > 0)) return { kind: 'whenever' };
  const current = Math.floor(nowMs / everyMs) * everyMs;
  return currentSlotStarted ? { kind: 'slot', atMs: current + everyMs, due: false } : { kind: 'slot', atMs: current, due: true };
}

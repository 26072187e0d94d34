/**
 * The browser's own clock, used ONLY to measure how much time passed locally
 * since a request was sent — never to tell absolute time (that comes from the
 * database clock, in the API's `observedAt` and ISO fields).
 *
 * Guarantees: `elapsedSince` is never negative and takes the larger of the
 * monotonic and the wall-clock deltas, so neither a sleeping laptop (where the
 * monotonic clock may pause) nor a wall clock stepped backwards can make data
 * look fresher than it is. Erring towards "older" is the safe side: an
 * overestimated age can turn a row unknown early; it can never keep it green.
 * Non-guarantees: a wall clock stepped forwards overstates elapsed time.
 */

export interface LocalStamp {
  /** `performance.now()` (monotonic, ms since the document's time origin). */
  mono: number;
  /** `Date.now()` (wall clock, ms) — only ever subtracted from another `wall`. */
  wall: number;
}

export function localNow(): LocalStamp {
  return { mono: performance.now(), wall: Date.now() };
}

export function elapsedSince(from: LocalStamp, to: LocalStamp): number {
  return Math.max(0, Math.round(to.mono - from.mono), Math.round(to.wall - from.wall));
}

/**
 * When this document's own request was sent: a lower bound on when the server
 * read the data it rendered into the page. Falls back to `now` (no navigation
 * timing available).
 */
export function documentRequestStamp(): LocalStamp {
  const now = localNow();
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (!entry || !(entry.requestStart > 0)) return now;
  const ago = now.mono - entry.requestStart;
  return { mono: entry.requestStart, wall: now.wall - ago };
}

/**
 * Retry delays: exponential backoff with "equal jitter" — half the capped
 * exponential step, plus a random share of the other half — so retries
 * never come at once and several evaluators never retry in lockstep.
 *
 * Guarantees: pure (`random` injected); for attempt n ≥ 1 the delay lies in
 * [cap/2, cap] with cap = min(maxMs, baseMs × 2^(n−1)); checks its options.
 */
export interface BackoffOptions {
  /** First retry waits between baseMs/2 and baseMs. Default 500 ms. */
  baseMs: number;
  /** No retry waits longer than this. Default 30 s. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = Object.freeze({ baseMs: 500, maxMs: 30_000 });

export function checkBackoff(o: BackoffOptions): BackoffOptions {
  if (!(Number.isFinite(o.baseMs) && o.baseMs > 0)) throw new RangeError(`backoff: baseMs must be > 0, got ${o.baseMs}`);
  if (!(Number.isFinite(o.maxMs) && o.maxMs >= o.baseMs)) throw new RangeError(`backoff: maxMs must be ≥ baseMs (${o.baseMs}), got ${o.maxMs}`);
  return o;
}

/** Delay before retry number `attempt` (1 = the first retry). */
export function retryDelayMs(attempt: number, o: BackoffOptions, random: () => number): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const cap = Math.min(o.maxMs, o.baseMs * 2 ** exponent);
  return Math.round(cap / 2 + random() * (cap / 2));
}

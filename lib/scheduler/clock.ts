/**
 * The runtime's clock: monotonic `now()` for scheduling and self-suspicion,
 * and an abortable `sleep`. It never decides lease validity — the database
 * does — it only bounds how long a holder trusts its last renewal.
 * Inject a fake in unit tests.
 */
import { performance } from 'node:perf_hooks';

export interface Clock {
  /** Non-decreasing milliseconds (arbitrary origin). Counts time while the process is stopped or the host suspended. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const wallStart = Date.now();
let lastNow = 0;

export const systemClock: Clock = {
  // CLOCK_MONOTONIC does not advance while a host or VM is suspended; the wall
  // clock does. The larger elapsed time of the two can only make a holder
  // suspect itself sooner (the safe direction), and the result never goes back.
  now: () => (lastNow = Math.max(lastNow, performance.now(), Date.now() - wallStart)),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** Races `promise` against `ms`; on timeout resolves `onTimeout()` (the outcome stays unknown). */
export async function withDeadline<T>(clock: Clock, promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  const abort = new AbortController();
  const timeout = clock.sleep(ms, abort.signal).then(() => (abort.signal.aborted ? null : { timedOut: true as const }));
  try {
    const winner = await Promise.race([promise.then((value) => ({ value })), timeout]);
    return winner && 'value' in winner ? winner.value : onTimeout();
  } finally {
    abort.abort();
  }
}

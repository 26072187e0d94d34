/**
 * A deadline on an answer from the database: the one way Leaseboard stops
 * waiting — for a lease statement (the runtime's acquire and renewal, bounded
 * by renewDeadline) and for a status read (the status service's read timeout).
 *
 * Guarantees: settles with `work`'s outcome when it comes within `ms`, else
 * with `onTimeout()` — its value, or what it throws; the timer is cancelled
 * once either side settles, so nothing lingers; a late result is ignored and
 * a late rejection swallowed (never an unhandled rejection).
 * Not guaranteed: that the abandoned work stops. Its outcome at the server is
 * unknown (docs/design.md, invariant 4); the caller says what that means.
 * Clock: `sleep` — by default a timer; the runtime passes its injected
 * Clock's, so a fake clock drives the deadline in unit tests.
 */

/** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** `Sleep` on a timer (the system clock's; the default here). */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });

const TIMED_OUT = Symbol('timed out');

export async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => T, sleep: Sleep = timerSleep): Promise<T> {
  const cancel = new AbortController();
  const timeout = sleep(ms, cancel.signal).then((): typeof TIMED_OUT => TIMED_OUT);
  // Seen whenever it settles: after the deadline, nobody else listens.
  work.catch(() => {});
  try {
    const winner = await Promise.race([work.then((value) => ({ value })), timeout]);
    return winner === TIMED_OUT ? onTimeout() : winner.value;
  } finally {
    cancel.abort();
  }
}

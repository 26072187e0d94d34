/**
 * The runtime's clock: monotonic `now()` for scheduling and self-suspicion,
 * an abortable `sleep`, and `random()` for the jitter of retries. It never
 * decides lease validity — the database does — it only bounds how long a
 * holder trusts its last renewal. Inject a fake in unit tests: then no
 * schedule the runtime makes depends on real time or real randomness.
 */
import { performance } from 'node:perf_hooks';
import { timerSleep } from '../lease';

export interface Clock {
  /** Non-decreasing milliseconds (arbitrary origin). Counts time while the process is stopped or the host suspended. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1): how retries are spread (jitter), so instances that failed together do not retry together. */
  random(): number;
}

const wallStart = Date.now();
let lastNow = 0;

export const systemClock: Clock = {
  // CLOCK_MONOTONIC does not advance while a host or VM is suspended; the wall
  // clock does. The larger elapsed time of the two can only make a holder
  // suspect itself sooner (the safe direction), and the result never goes back.
  now: () => (lastNow = Math.max(lastNow, performance.now(), Date.now() - wallStart)),
  sleep: timerSleep,
  random: () => Math.random(),
};

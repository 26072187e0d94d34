/**
 * The status service's own observation of the store: every read goes through
 * `read`, which enforces the deadline and remembers the last success.
 *
 * Guarantees
 * - `read` settles within `readTimeoutMs` (./deadline.ts) and throws only
 *   `StoreUnreadableError`.
 * - `lastObservedAtMs` is the DATABASE time of the last successful read;
 *   `estimatedNowMs` extends it with the monotonic clock, so a degraded answer
 *   stays on the database's time line and never moves backwards. The wall
 *   clock is used only while the store has never been read.
 * Non-guarantees: the estimate drifts with the host's monotonic clock rate.
 */
import { describe, readWithin, StoreUnreadableError } from './deadline';

export interface ObserverOptions {
  readTimeoutMs: number;
  /** Monotonic milliseconds. Default `performance.now`. */
  monotonicMs?: () => number;
  /** Wall-clock milliseconds, used only before the first successful read. Default `Date.now`. */
  wallMs?: () => number;
  /**
   * Told once when the store becomes unreadable (with the cause) and once when
   * it is readable again — not on every failed read. Default `console.warn`.
   */
  log?: (line: string, cause?: unknown) => void;
}

export interface ObservationState {
  /** Result of the latest read attempt (null: none yet). */
  ok: boolean | null;
  lastObservedAtMs: number | null;
  /** Round trip of the latest successful read. */
  lastLatencyMs: number | null;
  /** Safe description of the latest failure (code or class), null after a success. */
  lastError: string | null;
}

export class StoreObserver {
  readonly readTimeoutMs: number;
  private readonly mono: () => number;
  private readonly wall: () => number;
  private readonly log: (line: string, cause?: unknown) => void;
  private observedAtMs: number | null = null;
  private observedMono = 0;
  private state: ObservationState = { ok: null, lastObservedAtMs: null, lastLatencyMs: null, lastError: null };

  constructor(options: ObserverOptions) {
    if (!(options.readTimeoutMs > 0)) throw new RangeError(`readTimeoutMs must be > 0, got ${options.readTimeoutMs}`);
    this.readTimeoutMs = options.readTimeoutMs;
    this.mono = options.monotonicMs ?? (() => performance.now());
    this.wall = options.wallMs ?? (() => Date.now());
    this.log = options.log ?? ((line, cause) => console.warn(line, cause ?? ''));
  }

  /**
   * Runs `work` under the deadline. `dbNowMs` extracts the database time the
   * result was read at; a success records it as the last observation.
   */
  async read<T>(what: string, work: () => Promise<T>, dbNowMs: (result: T) => number): Promise<T> {
    const started = this.mono();
    try {
      const result = await readWithin(Promise.resolve().then(work), this.readTimeoutMs, what);
      const at = dbNowMs(result);
      const ended = this.mono();
      // Never move backwards: a slow read that started earlier may finish later.
      if (this.observedAtMs === null || at >= this.observedAtMs) {
        this.observedAtMs = at;
        this.observedMono = ended;
      }
      if (this.state.ok === false) this.log(`status store: readable again (${what})`);
      this.state = { ok: true, lastObservedAtMs: this.observedAtMs, lastLatencyMs: Math.round(ended - started), lastError: null };
      return result;
    } catch (error) {
      const failure = error instanceof StoreUnreadableError ? error : new StoreUnreadableError('error', `${what} failed: ${describe(error)}`, { cause: error });
      const lastError = failure.reason === 'timeout' ? 'timeout' : describe(failure.cause ?? failure);
      if (this.state.ok !== false) this.log(`status store: unreadable (${what}: ${lastError}); answering unknown`, failure.cause ?? failure);
      this.state = { ...this.state, ok: false, lastError };
      throw failure;
    }
  }

  lastObservedAtMs(): number | null {
    return this.observedAtMs;
  }

  /** The database clock as best known now (see module comment). */
  estimatedNowMs(): number {
    if (this.observedAtMs === null) return Math.trunc(this.wall());
    return Math.trunc(this.observedAtMs + (this.mono() - this.observedMono));
  }

  snapshot(): ObservationState {
    return { ...this.state };
  }
}

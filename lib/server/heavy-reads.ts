/**
 * The heavy reads' admission (detail, history, strips, audit, alerts): they
 * never delay the list, metrics or healthz — they run on their own
 * connections (`db`), under their own observer (a saturated heavy pool never
 * marks the store unreadable), at most `concurrency` at a time with at most
 * `queueMax` waiting; beyond that they are refused at once (`busy`, retry
 * after 1 s).
 *
 * Guarantees: a refused read does no work; an admitted one runs exactly once.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { ReadDeps } from './asof/detail';
import { failed, HEAVY_BUSY, okResult, type ReadResult } from './domain/result';
import { unreadableResult } from './store/deadline';

export class HeavyReads {
  private readonly limit: LimitFunction;
  private readonly concurrency: number;
  private readonly queueMax: number;

  constructor(
    /** What every heavy read reads with: its connections, its observer, the settings the answers need. */
    readonly deps: ReadDeps,
    options: { concurrency: number; queueMax: number },
  ) {
    this.limit = pLimit(Math.max(1, options.concurrency));
    this.concurrency = this.limit.concurrency;
    this.queueMax = Math.max(0, options.queueMax);
  }

  /** Runs a heavy read under the concurrency cap, or refuses it at once when too many wait. */
  run<T>(read: () => Promise<ReadResult<T>>): Promise<ReadResult<T>> {
    const saturated = this.limit.activeCount >= this.concurrency && this.limit.pendingCount >= this.queueMax;
    if (saturated) return Promise.resolve(failed(HEAVY_BUSY));
    return this.limit(read);
  }

  /** A heavy read of one query through the heavy observer (deadline, last observation): its answer, or the store unreadable. */
  observed<R, T>(what: string, read: (deps: ReadDeps) => Promise<R>, nowMs: (read: R) => number, answer: (read: R) => T): Promise<ReadResult<T>> {
    return this.run(async () => {
      try {
        return okResult(answer(await this.deps.observer.read(what, () => read(this.deps), nowMs)));
      } catch (error) {
        return unreadableResult(error);
      }
    });
  }
}

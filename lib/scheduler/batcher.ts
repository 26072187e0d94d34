/**
 * Many small requests, one call: the requests asked within one short window
 * (at most `maxBatch`) go to `call` together, as ONE statement where `call`
 * sends one. What the process's reporter (./reporter.ts) and the work loop's
 * pass reads (./pass-reader.ts) batch with.
 *
 * Guarantees
 * - Each request gets its own answer: the call's answer at its position. A
 *   call that fails (or answers a different number of requests) rejects every
 *   request in it with that error; the next batch is sent as usual.
 * - A request waits at most `windowMs` before its batch is sent: the window
 *   opens with a batch's first request; a batch that reaches `maxBatch` is
 *   sent at once.
 * - No timer outlives a batch: a batch sent early cancels its window.
 * Clock: the injected Clock, for scheduling only.
 */
import type { Clock } from './clock';

export type BatchCall<Q, A> = (requests: readonly Q[]) => Promise<readonly A[]>;

interface Pending<Q, A> {
  request: Q;
  resolve: (answer: A) => void;
  reject: (error: unknown) => void;
}

interface Batch<Q, A> {
  pending: Pending<Q, A>[];
  window: AbortController;
}

export class Batcher<Q, A> {
  private open: Batch<Q, A> | null = null;

  constructor(
    private readonly call: BatchCall<Q, A>,
    private readonly clock: Clock,
    private readonly windowMs: number,
    private readonly maxBatch: number,
  ) {
    if (!(maxBatch >= 1)) throw new Error(`batcher: maxBatch must be at least 1 (got ${maxBatch})`);
  }

  ask(request: Q): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      let batch = this.open;
      if (!batch) {
        const opened: Batch<Q, A> = (batch = this.open = { pending: [], window: new AbortController() });
        void this.clock.sleep(this.windowMs, opened.window.signal).then(() => this.send(opened));
      }
      batch.pending.push({ request, resolve, reject });
      if (batch.pending.length >= this.maxBatch) this.send(batch);
    });
  }

  private send(batch: Batch<Q, A>): void {
    if (this.open !== batch) return; // already sent
    this.open = null;
    batch.window.abort();
    const { pending } = batch;
    // A call that throws instead of rejecting fails its batch the same way.
    new Promise<readonly A[]>((resolve) => resolve(this.call(pending.map((p) => p.request)))).then(
      (answers) => {
        if (answers.length !== pending.length) {
          const error = new Error(`batcher: ${answers.length} answers to ${pending.length} requests`);
          for (const p of pending) p.reject(error);
          return;
        }
        pending.forEach((p, i) => p.resolve(answers[i]!));
      },
      (error: unknown) => {
        for (const p of pending) p.reject(error);
      },
    );
  }
}

/**
 * One instance per pool and clock, made (by `make`) on first use: what the
 * process's runtimes on that pool share, as they share `sharedRenewer`.
 */
export function perPoolAndClock<T>(): (db: object, clock: Clock, make: () => T) => T {
  const shared = new WeakMap<object, WeakMap<Clock, T>>();
  return (db, clock, make) => {
    let byClock = shared.get(db);
    if (!byClock) shared.set(db, (byClock = new WeakMap()));
    let made = byClock.get(clock);
    if (made === undefined) byClock.set(clock, (made = make()));
    return made;
  };
}

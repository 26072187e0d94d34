/**
 * The renewer a tenure renews through. One per process and pool
 * (`sharedRenewer`): every SchedulerRuntime of a process that shares a pool
 * — the dashboard server hosts several jobs — renews through the same one,
 * and renewals asked for in the same turn of the event loop go to the
 * database as ONE statement (LeaseAuthority.renewMany).
 *
 * How leases come to renew together: a tenure waiting for its next renewal
 * waits through `wait(minMs, ms)`. When another tenure's renewal is about to
 * leave, every waiter past its `minMs` (half its interval) is woken to ride
 * along. Renewing early only moves an expiry later, so it is always safe;
 * after one round the leases of a process renew in step.
 *
 * Guarantees
 * - Each grant gets its own result, judged on its own on the database clock
 *   (../lease/sql.ts RENEW_MANY_SQL); a statement whose outcome is unknown is
 *   unknown for every grant in it, and an error reaches every caller.
 * - Nothing here changes self-suspicion: the tenure still dates its renewal
 *   from when IT asked (never later than the statement was sent) and still
 *   bounds the wait by its own renewDeadline (./tenure.ts).
 * - No timer or listener outlives a call: `wait` removes its rider and its
 *   abort listener when it returns.
 * Not guaranteed: that a batch waits no longer than its slowest lease — the
 * statement waits for every row lock among its leases (see renewMany).
 * Clock: the injected Clock, for scheduling only.
 */
import type { Grant, LeaseAuthority, RenewResult } from '../lease';
import { perPoolAndClock } from './batcher';
import type { Clock } from './clock';

export interface Renewer {
  renew(grant: Grant): Promise<RenewResult>;
  /**
   * Waits `ms` for the next renewal, or less — never under `minMs` — when a
   * renewal of the same process leaves earlier. Returns at once when `signal` aborts.
   */
  wait(minMs: number, ms: number, signal: AbortSignal): Promise<void>;
}

interface Pending {
  grant: Grant;
  resolve: (result: RenewResult) => void;
  reject: (error: unknown) => void;
}

interface Rider {
  earliestAt: number;
  wake: () => void;
}

/** Renews what is asked in one event-loop turn as one statement. */
export class BatchRenewer implements Renewer {
  private queue: Pending[] = [];
  private readonly riders = new Set<Rider>();

  constructor(
    private readonly authority: Pick<LeaseAuthority, 'renewMany'>,
    private readonly clock: Clock,
  ) {}

  renew(grant: Grant): Promise<RenewResult> {
    return new Promise<RenewResult>((resolve, reject) => {
      this.queue.push({ grant, resolve, reject });
      if (this.queue.length > 1) return;
      // The first request of a batch: wake the riders (their requests join in their
      // continuations, before the next turn) and send the batch on the next turn.
      const now = this.clock.now();
      for (const rider of this.riders) if (rider.earliestAt <= now) rider.wake();
      setImmediate(() => void this.flush());
    });
  }

  async wait(minMs: number, ms: number, signal: AbortSignal): Promise<void> {
    if (ms <= minMs || signal.aborted) return this.clock.sleep(ms, signal);
    const early = new AbortController();
    const rider: Rider = { earliestAt: this.clock.now() + minMs, wake: () => early.abort() };
    const onAbort = () => early.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.riders.add(rider);
    try {
      await this.clock.sleep(ms, early.signal);
    } finally {
      this.riders.delete(rider);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      const results = await this.authority.renewMany(batch.map((p) => p.grant));
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}

const renewers = perPoolAndClock<BatchRenewer>();

/** The process's renewer for this pool and clock (made on first use). */
export function sharedRenewer(db: object, authority: Pick<LeaseAuthority, 'renewMany'>, clock: Clock): BatchRenewer {
  return renewers(db, clock, () => new BatchRenewer(authority, clock));
}

/**
 * One tenure: the time this instance holds one epoch. Owns the renew loop and
 * the holder's self-suspicion.
 *
 * Guarantees
 * - `fence()` returns the epoch's fence only while the last renewal is proven
 *   and `now < renewStart + ttl − safetyMargin` on the monotonic clock (the
 *   database's expiry can only be later). After a renewal timed out (outcome
 *   unknown) it returns null until a later renewal proves the lease.
 * - On a refused renewal, or when the self-suspicion deadline passes, the
 *   tenure ends: `signal` aborts and every loop bound to it stops at once.
 * Not guaranteed: that no write of this epoch reaches the store after the
 * tenure ends — a step begun earlier still carries the fence it captured,
 * and only the resource fence (../lease/fence.ts) stops it.
 */
import { type Fence, fenceFor, type Grant, type LeaseConfig, withDeadline } from '../lease';
import type { Clock } from './clock';
import { type EventSink, safeMessage } from './events';
import type { Renewer } from './renewer';

export interface TenureOptions {
  /** The grant this tenure holds: lease, holder and epoch. */
  readonly grant: Grant;
  readonly config: LeaseConfig;
  /** Renews the lease; usually the process's shared, batching renewer (./renewer.ts). */
  readonly renewer: Renewer;
  readonly clock: Clock;
  readonly emit: EventSink;
  /** Monotonic time the granting request was sent: the grant's expiry is later than this + ttl. */
  readonly grantRequestedAt: number;
  /** The runtime's stop: when it aborts, the tenure ends (`stopped`). */
  readonly parent: AbortSignal;
  /**
   * False for an adopted grant (`held_by_self`): the server's expiry was set by an
   * earlier request whose outcome we never saw, so nothing is trusted until a
   * renewal proves the lease (the renew loop renews at once). Default true.
   */
  readonly proven?: boolean;
}

/** Why a tenure ended: a renewal was refused, the holder suspected itself, the runtime stopped, or it drained for an operator's disable. */
export type TenureEndReason = 'renewal_refused' | 'self_suspected' | 'stopped' | 'drained';

export class Tenure {
  readonly grant: Grant;
  private readonly config: LeaseConfig;
  private readonly renewer: Renewer;
  private readonly clock: Clock;
  private readonly emit: EventSink;
  private readonly controller = new AbortController();
  private validUntil: number;
  private suspect = false;
  private endedBy: TenureEndReason | null = null;
  private issued: Fence | null = null;

  constructor(options: TenureOptions) {
    ({ grant: this.grant, config: this.config, renewer: this.renewer, clock: this.clock, emit: this.emit } = options);
    this.validUntil = options.grantRequestedAt + this.config.ttlMs - this.config.safetyMarginMs;
    this.suspect = options.proven === false;
    const parent = options.parent;
    const onParentAbort = () => this.end('stopped');
    if (parent.aborted) {
      onParentAbort(); // granted after stop() began: end at once, listen to nothing
    } else {
      parent.addEventListener('abort', onParentAbort, { once: true });
      this.controller.signal.addEventListener('abort', () => parent.removeEventListener('abort', onParentAbort), { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get epoch(): number {
    return this.grant.epoch;
  }

  get reasonEnded(): TenureEndReason | null {
    return this.endedBy;
  }

  /** False once a renewal's outcome is unknown (until a later one proves the lease) or the tenure ended. */
  get trusted(): boolean {
    return !this.signal.aborted && !this.suspect;
  }

  /** The fence to carry on a fenced or external step starting now, or null when authority is not proven. */
  fence(): Fence | null {
    if (this.signal.aborted || this.suspect) return null;
    if (this.clock.now() >= this.validUntil) {
      this.lose('self_suspected');
      return null;
    }
    return (this.issued ??= fenceFor(this.grant));
  }

  /** Renews every `renewEveryMs` until the tenure ends. */
  async renewLoop(): Promise<void> {
    const { renewEveryMs, renewDeadlineMs, ttlMs, safetyMarginMs } = this.config;
    while (!this.signal.aborted) {
      // 1. wait (not at all while unproven), but never past the self-suspicion deadline;
      //    from half the interval on, ride along with another lease's renewal (one statement)
      const wait = this.suspect ? 0 : Math.min(renewEveryMs, Math.max(0, this.validUntil - this.clock.now()));
      await this.renewer.wait(Math.min(wait, renewEveryMs / 2), wait, this.signal);
      if (this.signal.aborted) return;
      // 2. renew, bounded by the deadline; a timeout is an unknown outcome. renewStart is taken
      //    before asking, so it is never later than the statement that renews.
      const renewStart = this.clock.now();
      let result;
      try {
        result = await withDeadline(
          this.renewer.renew(this.grant),
          renewDeadlineMs,
          () => ({ kind: 'unknown' as const, cause: 'deadline' }),
          (ms, signal) => this.clock.sleep(ms, signal),
        );
      } catch (error) {
        this.emit({ event: 'error', where: 'renew', message: safeMessage(error) });
        result = { kind: 'unknown' as const, cause: error };
      }
      if (this.signal.aborted) return;
      // 3. decide
      switch (result.kind) {
        case 'renewed':
          this.validUntil = renewStart + ttlMs - safetyMarginMs;
          this.suspect = false;
          break;
        case 'lost':
          this.lose('renewal_refused');
          return;
        case 'unknown':
          this.suspect = true;
          this.emit({ event: 'renew_unknown', lease: this.grant.name, epoch: this.grant.epoch });
          // Retry soon, not at once: the store may be struggling.
          await this.clock.sleep(Math.min(renewEveryMs, Math.max(0, this.validUntil - this.clock.now())), this.signal);
          break;
        default: {
          const unreachable: never = result;
          throw new Error(`unexpected renew result ${JSON.stringify(unreachable)}`);
        }
      }
      if (this.clock.now() >= this.validUntil) {
        this.lose('self_suspected');
        return;
      }
    }
  }

  /** Ends the tenure without a loss: shutdown, or draining for an operator who disabled the lease. */
  end(reason: 'stopped' | 'drained'): void {
    // A stop asked for while a loss is being announced (a `lost` listener stopping the runtime) keeps the loss as the reason.
    if (this.signal.aborted || this.endedBy !== null) return;
    this.endedBy = reason;
    this.controller.abort();
  }

  private lose(why: 'renewal_refused' | 'self_suspected'): void {
    if (this.signal.aborted) return;
    this.endedBy = why;
    this.emit({ event: 'lost', lease: this.grant.name, epoch: this.grant.epoch, why });
    this.controller.abort();
  }
}

/**
 * What the loops of one tenure share (./work-loop.ts, ./report-loop.ts and
 * the runtime's `snapshot()`), in one object, each part with one writer:
 *
 * - position — the occurrence in flight and its cursor. Only the work loop
 *   moves it (`claimed`, `moved`, `completed`, `foundCompleted`); the report
 *   loop reads it for every report, the runtime for its snapshot. A tenure's
 *   state ends with it, so a new tenure starts with nothing in flight.
 * - the last occurrence this tenure saw completed — the work loop does not
 *   claim it again (the claim could only answer `already_completed`).
 * - report seqs (`nextSeq`), drawn by the report loop: contiguous from 1
 *   within an EPOCH, not a tenure — a tenure that adopts its own epoch
 *   (`held_by_self`) continues the stream the previous one left (`EpochSeqs`,
 *   kept by the runtime).
 * - the runtime's write counters (`WriteStats`, ./events.ts), shared by every
 *   tenure of a runtime and reported when it stops. The rule: ONE ATTEMPT PER
 *   FENCED SIDE EFFECT SENT — each fenced statement (a claim; a batch's write,
 *   its cursor move inside the same statement; a step move; a completion; the
 *   cursor move after an accepted call) and each external call. `accepted`
 *   when the database wrote it or the target accepted it, `rejected` when a
 *   fence refused it (the database's or the target's); an unknown outcome is
 *   attempted and neither (counted `unknown`). A fenced write that never
 *   reached a server (`not_sent`) is no attempt: counted `notSent` only. So a batch written to this database is one
 *   attempt, and a batch sent to an external target two: the call, then its
 *   cursor move. `attempted = accepted + rejected + unknown` always.
 *
 * Not guaranteed: that a report carries the position of the very instant it
 * is stored — the report loop reads the position when it builds the report.
 */
import type { WriteStats } from './events';

/** What a report says is in flight: the occurrence and the cursor of its current step. */
export interface WorkPosition {
  occurrence: string | null;
  cursor: number | null;
}

/** Report seqs per epoch, across the tenures of one runtime. */
export class EpochSeqs {
  private epoch = 0;
  private last = 0;

  /** The next seq of `epoch`: 1 for an epoch not seen before, else one past the last drawn. */
  next(epoch: number): number {
    if (epoch !== this.epoch) [this.epoch, this.last] = [epoch, 0];
    return ++this.last;
  }
}

/** The outcome of one fenced side effect, as the counters read it: a fenced write's or an external call's. */
type Outcome = { kind: 'written' | 'accepted' | 'rejected' | 'unknown' | 'not_sent' };

export class TenureState {
  private occurrence: string | null = null;
  private cursor: number | null = null;
  private lastCompleted: string | null = null;

  constructor(
    private readonly options: {
      readonly epoch: number;
      readonly seqs: EpochSeqs;
      /** The runtime's counters (mutated here only). */
      readonly writes: WriteStats;
    },
  ) {}

  get position(): WorkPosition {
    return { occurrence: this.occurrence, cursor: this.cursor };
  }

  /** The occurrence `key` is claimed (or resumed) at `cursor`. */
  claimed(key: string, cursor: number): void {
    this.occurrence = key;
    this.cursor = cursor;
  }

  /** The step in flight stands at `cursor` (a new step starts at its own 0). */
  moved(cursor: number): void {
    this.cursor = cursor;
  }

  /** This tenure completed `key`: nothing in flight. */
  completed(key: string): void {
    this.occurrence = null;
    this.cursor = null;
    this.lastCompleted = key;
  }

  /** The claim found `key` completed already (by another holder): nothing in flight, and no need to claim it again. */
  foundCompleted(key: string): void {
    this.completed(key);
  }

  /** Whether this tenure saw `key` completed. */
  isCompleted(key: string): boolean {
    return this.lastCompleted === key;
  }

  /** The next report's seq (see `EpochSeqs`). */
  nextSeq(): number {
    return this.options.seqs.next(this.options.epoch);
  }

  /** Counts one fenced side effect by the module's rule; true when it was written or accepted. */
  count(outcome: Outcome): boolean {
    const writes = this.options.writes;
    if (outcome.kind === 'not_sent') {
      writes.notSent++;
      return false;
    }
    writes.attempted++;
    if (outcome.kind === 'rejected') writes.rejected++;
    if (outcome.kind === 'unknown') writes.unknown++;
    const done = outcome.kind === 'written' || outcome.kind === 'accepted';
    if (done) writes.accepted++;
    return done;
  }
}

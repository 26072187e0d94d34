/**
 * The reporter a tenure's report loop reports through. One per process and
 * pool (`sharedReporter`), as the renewer is (./renewer.ts): the reports every
 * runtime on that pool sends within one short window leave as ONE statement
 * (./report-store.ts appendReports, leaseboard_report_many), instead of a
 * statement per report — at 10,000 schedulers, 5,000 statements a second.
 *
 * Guarantees (the batching itself is ./batcher.ts's)
 * - Each report gets its own answer (advanced, reported_at), exactly as its
 *   own leaseboard_report call answers inside the batch; a statement that
 *   fails rejects every report in it with that error, as each would have
 *   failed alone (the report loop counts it as a gap, never retries).
 * - A report waits at most `windowMs` before its batch is sent (at once when
 *   the batch reaches `maxBatch`). The report's time is still the database's,
 *   taken when its own call runs, and the silence bound (3 × the report
 *   interval) dwarfs the window.
 * - No timer outlives a batch.
 * - The process's report loops report in rounds on one grid (./report-rounds.ts,
 *   the phase drawn once per reporter), so one round is one statement.
 * Clock: the injected Clock, for scheduling only.
 */
import { Batcher, perPoolAndClock } from './batcher';
import type { Clock } from './clock';
import type { ProgressReport, StoredReport } from './report-store';
import { roundPhase, untilNextRound } from './report-rounds';

export interface Reporter {
  report(report: ProgressReport): Promise<StoredReport>;
  /** Milliseconds from `now` to this process's next report round for reports every `everyMs`. */
  untilNextRound(now: number, everyMs: number): number;
}

/** How long a report waits for others to join its statement (ms). */
const REPORT_BATCH_WINDOW_MS = 50;
/** The most reports one statement carries. */
const REPORT_BATCH_MAX = 500;

export type AppendReports = (reports: readonly ProgressReport[]) => Promise<StoredReport[]>;

/** Sends the reports asked for within one window as one statement. */
export class BatchReporter implements Reporter {
  private readonly batcher: Batcher<ProgressReport, StoredReport>;
  private readonly phaseMs: number;

  constructor(appendMany: AppendReports, clock: Clock, windowMs = REPORT_BATCH_WINDOW_MS, maxBatch = REPORT_BATCH_MAX) {
    this.batcher = new Batcher(appendMany, clock, windowMs, maxBatch);
    this.phaseMs = roundPhase(() => clock.random());
  }

  report(report: ProgressReport): Promise<StoredReport> {
    return this.batcher.ask(report);
  }

  untilNextRound(now: number, everyMs: number): number {
    return untilNextRound(now, everyMs, this.phaseMs);
  }
}

const reporters = perPoolAndClock<BatchReporter>();

/** The process's reporter for this pool and clock (made on first use). */
export function sharedReporter(db: object, appendMany: AppendReports, clock: Clock): BatchReporter {
  return reporters(db, clock, () => new BatchReporter(appendMany, clock));
}

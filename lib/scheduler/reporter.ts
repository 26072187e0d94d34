/**
 * The reporter a tenure's report loop reports through. One per process and
 * pool (`sharedReporter`), as the renewer is (./renewer.ts): the reports every
 * runtime on that pool sends within one short window leave as ONE statement
 * (./report-store.ts appendReports, leaseboard_report_many), instead of a
 * statement per report — at 10,000 schedulers, 5,000 statements a second.
 *
 * Guarantees
 * - Each report gets its own answer (advanced, reported_at), exactly as its
 *   own leaseboard_report call answers inside the batch; a statement that
 *   fails rejects every report in it with that error, as each would have
 *   failed alone (the report loop counts it as a gap, never retries).
 * - A report waits at most `windowMs` before its batch is sent (at once when
 *   the batch reaches `maxBatch`). The report's time is still the database's,
 *   taken when its own call runs, and the silence bound (3 × the report
 *   interval) dwarfs the window.
 * - No timer outlives a batch: a batch sent early cancels its window.
 * Clock: the injected Clock, for scheduling only.
 */
import type { Clock } from './clock';
import type { ProgressReport, StoredReport } from './report-store';

export interface Reporter {
  report(report: ProgressReport): Promise<StoredReport>;
}

/** How long a report waits for others to join its statement (ms). */
export const REPORT_BATCH_WINDOW_MS = 50;
/** The most reports one statement carries. */
export const REPORT_BATCH_MAX = 500;

interface Pending {
  report: ProgressReport;
  resolve: (stored: StoredReport) => void;
  reject: (error: unknown) => void;
}

interface Batch {
  pending: Pending[];
  window: AbortController;
}

export type AppendReports = (reports: readonly ProgressReport[]) => Promise<StoredReport[]>;

/** Sends the reports asked for within one window as one statement. */
export class BatchReporter implements Reporter {
  private open: Batch | null = null;

  constructor(
    private readonly appendMany: AppendReports,
    private readonly clock: Clock,
    private readonly windowMs = REPORT_BATCH_WINDOW_MS,
    private readonly maxBatch = REPORT_BATCH_MAX,
  ) {}

  report(report: ProgressReport): Promise<StoredReport> {
    return new Promise<StoredReport>((resolve, reject) => {
      let batch = this.open;
      if (!batch) {
        const opened: Batch = (batch = this.open = { pending: [], window: new AbortController() });
        void this.clock.sleep(this.windowMs, opened.window.signal).then(() => this.send(opened));
      }
      batch.pending.push({ report, resolve, reject });
      if (batch.pending.length >= this.maxBatch) this.send(batch);
    });
  }

  private send(batch: Batch): void {
    if (this.open !== batch) return; // already sent
    this.open = null;
    batch.window.abort();
    const { pending } = batch;
    this.appendMany(pending.map((p) => p.report)).then(
      (stored) => pending.forEach((p, i) => p.resolve(stored[i]!)),
      (error: unknown) => {
        for (const p of pending) p.reject(error);
      },
    );
  }
}

const shared = new WeakMap<object, WeakMap<Clock, BatchReporter>>();

/** The process's reporter for this pool and clock (made on first use). */
export function sharedReporter(db: object, appendMany: AppendReports, clock: Clock): BatchReporter {
  let byClock = shared.get(db);
  if (!byClock) shared.set(db, (byClock = new WeakMap()));
  let reporter = byClock.get(clock);
  if (!reporter) byClock.set(clock, (reporter = new BatchReporter(appendMany, clock)));
  return reporter;
}

/**
 * Progress report storage: `progress_reports`, stored as runs (migrations
 * 0025_report_runs, 0028_report_events: a row per epoch, cadence or break, an
 * hour at most; about half a byte per quiet report in it, an event per cursor
 * move or occurrence change), plus the per-lease
 * `progress_summaries` row, both written by ONE statement, timed by the
 * database clock (to the millisecond), so the status service reads
 * O(schedulers), not O(events).
 *
 * Guarantees
 * - A report is an *advance* when it is its epoch's first report, or its
 *   occurrence or cursor differs from the summary's (started, moved, completed).
 * - The summary only ever describes the newest epoch that reported: a late
 *   report from an older epoch is appended but never touches it.
 * - Within an epoch the summary keeps the most recent closed break, by the
 *   report-break rule (lib/status/report-break.ts: a seq jump is `lost_reports`,
 *   a quiet longer than SILENCE_FACTOR × the previous report's own cadence is
 *   `silence`), from the last report before it to the first after it.
 * - Every report keeps its seq, time, cursor, advance and the cadence it was
 *   sent with (`report_every_ms`, one per run), so the as-of rebuild expands
 *   runs back into reports and judges each break as this statement did; a
 *   break always starts a new run.
 * - Many reports in one statement (`appendReports`, leaseboard_report_many,
 *   migration 0033_report_many) are each the one report above: the function
 *   calls leaseboard_report per entry, and each entry gets its own answer.
 * Not guaranteed: delivery. A dropped report is an observation gap, and that is
 * exactly what the seq stream exposes.
 */
import type pg from 'pg';

export interface ProgressReport {
  lease: string;
  epoch: number;
  /** Contiguous from 1 within an epoch. */
  seq: number;
  /** Occurrence key in flight, or null when idle. */
  occurrence: string | null;
  cursor: number | null;
  reportEveryMs: number;
}

export interface StoredReport {
  advanced: boolean;
  reportedAt: Date;
}

/** The report statement is the SQL function leaseboard_report (db/migrations/0028_report_events.sql), its break rule reportBreakSql's. */
const APPEND_REPORT_SQL = `SELECT advanced, reported_at FROM leaseboard_report($1, $2, $3, $4, $5, $6)`;

const APPEND_REPORTS_SQL = `SELECT i, advanced, reported_at FROM leaseboard_report_many($1, $2, $3, $4, $5, $6)`;

export async function appendReport(db: Pick<pg.Pool, 'query'>, report: ProgressReport): Promise<StoredReport> {
  const { rows } = await db.query<{ advanced: boolean; reported_at: Date }>({
    text: APPEND_REPORT_SQL,
    values: [report.lease, report.epoch, report.seq, report.occurrence, report.cursor, report.reportEveryMs],
  });
  const row = rows[0]!;
  return { advanced: row.advanced, reportedAt: row.reported_at };
}

/** Many leases' reports as ONE statement (leaseboard_report_many): an answer per report, in the order given; an error fails them all. */
export async function appendReports(db: Pick<pg.Pool, 'query'>, reports: readonly ProgressReport[]): Promise<StoredReport[]> {
  const { rows } = await db.query<{ i: string; advanced: boolean; reported_at: Date }>({
    text: APPEND_REPORTS_SQL,
    values: [
      reports.map((r) => r.lease),
      reports.map((r) => r.epoch),
      reports.map((r) => r.seq),
      reports.map((r) => r.occurrence),
      reports.map((r) => r.cursor),
      reports.map((r) => r.reportEveryMs),
    ],
  });
  const answers: StoredReport[] = new Array(reports.length);
  for (const row of rows) answers[Number(row.i) - 1] = { advanced: row.advanced, reportedAt: row.reported_at };
  for (let i = 0; i < reports.length; i++) if (!answers[i]) throw new Error(`leaseboard_report_many: no answer for report ${i + 1} of ${reports.length}`);
  return answers;
}

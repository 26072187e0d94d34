/**
 * Progress report storage: append-only `progress_reports` plus the per-lease
 * `progress_summaries` row, both written by ONE statement, timed by the
 * database clock, so the status service reads O(schedulers), not O(events).
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
 * - Every report row keeps the cadence it was sent with (`report_every_ms`),
 *   so the as-of rebuild judges each break as this statement did.
 * Not guaranteed: delivery. A dropped report is an observation gap, and that is
 * exactly what the seq stream exposes.
 */
import type pg from 'pg';
import { reportBreakSql } from '../status';

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

const APPEND_REPORT_SQL = `
WITH c AS (SELECT clock_timestamp() AS now),
  prev AS (SELECT * FROM progress_summaries WHERE lease = $1),
  r AS (
    SELECT $1::text AS lease, $2::bigint AS epoch, $3::int AS seq, $4::text AS occurrence, $5::bigint AS cursor,
           $6::int AS every, c.now,
           (prev.lease IS NULL OR prev.epoch < $2::bigint
             OR prev.in_flight IS DISTINCT FROM $4::text OR prev.cursor IS DISTINCT FROM $5::bigint) AS advanced,
           CASE WHEN prev.epoch = $2::bigint THEN ${reportBreakSql({
             prevSeq: 'prev.last_seq',
             seq: '$3::int',
             prevAt: 'prev.last_report_at',
             at: 'c.now',
             prevEveryMs: 'prev.report_every_ms',
           })} END AS break_reason,
           prev.last_report_at AS break_from
    FROM c LEFT JOIN prev ON true
  ),
  appended AS (
    INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at, report_every_ms)
    SELECT lease, epoch, seq, occurrence, cursor, advanced, now, every FROM r
  ),
  summary AS (
    INSERT INTO progress_summaries AS s (lease, epoch, first_report_at, last_report_at, last_seq, last_advance_at,
                                         in_flight, cursor, report_every_ms, gap_from, gap_to, gap_reason)
    SELECT lease, epoch, now, now, seq, now, occurrence, cursor, every,
           CASE WHEN break_reason IS NOT NULL THEN break_from END,
           CASE WHEN break_reason IS NOT NULL THEN now END, break_reason
    FROM r
    ON CONFLICT (lease) DO UPDATE SET
      epoch = excluded.epoch,
      first_report_at = CASE WHEN s.epoch = excluded.epoch THEN s.first_report_at ELSE excluded.first_report_at END,
      last_report_at = excluded.last_report_at,
      last_seq = excluded.last_seq,
      last_advance_at = CASE WHEN (SELECT advanced FROM r) THEN excluded.last_advance_at ELSE s.last_advance_at END,
      in_flight = excluded.in_flight,
      cursor = excluded.cursor,
      report_every_ms = excluded.report_every_ms,
      gap_from = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_from ELSE s.gap_from END,
      gap_to = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_to ELSE s.gap_to END,
      gap_reason = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_reason ELSE s.gap_reason END,
      change_xid = pg_current_xact_id()
    WHERE s.epoch <= excluded.epoch
  )
SELECT advanced, now AS reported_at FROM r`;

export async function appendReport(db: Pick<pg.Pool, 'query'>, report: ProgressReport): Promise<StoredReport> {
  const { rows } = await db.query<{ advanced: boolean; reported_at: Date }>({
    name: 'progress_append',
    text: APPEND_REPORT_SQL,
    values: [report.lease, report.epoch, report.seq, report.occurrence, report.cursor, report.reportEveryMs],
  });
  const row = rows[0]!;
  return { advanced: row.advanced, reportedAt: row.reported_at };
}

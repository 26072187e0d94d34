/**
 * A scheduler's registration: its cadence and the thresholds the status
 * service judges it by — configuration, not authority — in `schedulers`, one
 * row per name. The runtime writes it as it starts; nothing else does (test
 * seeding calls this very function).
 *
 * Guarantees: one statement, timed by the database clock; the newest
 * registration wins whole (every field and `registered_at`), so the row is
 * what the last instance to start was configured with — all but
 * `first_registered_at`, which the first registration sets and no later one
 * changes (history starts there). Not guaranteed: that
 * it describes the instance holding the lease now — which is why progress is
 * judged by each report's own cadence (lib/status/report-break.ts), never by
 * this row's.
 */
import type pg from 'pg';

export interface Registration {
  name: string;
  /** Occurrences fall due every `everyMs`. */
  everyMs: number;
  reportEveryMs: number;
  stallAfterMs: number;
  overdueAfterMs: number;
}

const REGISTER_SQL = `
WITH c AS (SELECT clock_timestamp() AS now)
INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at)
SELECT $1::text, $2::int, $3::int, $4::int, $5::int, c.now, c.now FROM c
ON CONFLICT (name) DO UPDATE SET every_ms = excluded.every_ms, report_every_ms = excluded.report_every_ms,
  stall_after_ms = excluded.stall_after_ms, overdue_after_ms = excluded.overdue_after_ms, registered_at = excluded.registered_at`;

export async function registerScheduler(db: Pick<pg.Pool, 'query'>, r: Registration): Promise<void> {
  await db.query({ name: 'scheduler_register', text: REGISTER_SQL, values: [r.name, r.everyMs, r.reportEveryMs, r.stallAfterMs, r.overdueAfterMs] });
}

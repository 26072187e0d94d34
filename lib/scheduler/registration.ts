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
 * changes (history starts there). Labels too: the registration's declared
 * labels replace the previous registration's (none declared: none), while an
 * operator's labels (label_overrides) stay the scheduler's labels until an
 * operator hands them back. Labels are checked here (lib/limits/labels.ts) and
 * again by the database. Not guaranteed: that
 * it describes the instance holding the lease now — which is why progress is
 * judged by each report's own cadence (lib/status/report-break.ts), never by
 * this row's.
 */
import type pg from 'pg';
import { checkLabels, type Labels } from '../limits/labels';

export interface Registration {
  name: string;
  /** Occurrences fall due every `everyMs`. */
  everyMs: number;
  reportEveryMs: number;
  stallAfterMs: number;
  overdueAfterMs: number;
  /** Declared labels (default none). */
  labels?: Labels;
}

export class RegistrationError extends Error {
  constructor(message: string) {
    super(`registration: ${message}`);
    this.name = 'RegistrationError';
  }
}

/** The SQL function leaseboard_register (db/migrations/0018_protocol_functions.sql): every client registers the same way. */
const REGISTER_SQL = `SELECT leaseboard_register($1, $2, $3, $4, $5, $6::jsonb)`;

/** Throws RegistrationError, before any statement, when the labels break the rules of lib/limits/labels.ts. */
export async function registerScheduler(db: Pick<pg.Pool, 'query'>, r: Registration): Promise<void> {
  const labels = checkLabels(r.labels ?? {});
  if (!labels.ok) throw new RegistrationError(labels.message);
  await db.query({ text: REGISTER_SQL, values: [r.name, r.everyMs, r.reportEveryMs, r.stallAfterMs, r.overdueAfterMs, JSON.stringify(labels.labels)] });
}

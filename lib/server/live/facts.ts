/**
 * Reads the facts of all schedulers (or one) with `now` from the same
 * database clock, and maps rows → `SchedulerFacts` plus per-scheduler
 * thresholds. Judges nothing: every decision stays in lib/status.
 *
 * Guarantees: exactly ONE query per call (see ./facts-sql.ts); times are
 * ISO-8601 UTC strings truncated to the millisecond; thresholds come from
 * the scheduler's registration row (stall_after_ms, overdue_after_ms, gapAfter
 * = SILENCE_FACTOR × the reporting epoch's report_every_ms, applied by lib/status) and fall back to lib/status defaults when there is no
 * row or the row holds values the projection cannot use.
 * Non-guarantees: no timeout of its own — callers wrap it (../store/deadline.ts).
 */
import { checkThresholds, DEFAULT_THRESHOLDS, type Thresholds } from '../../status';
import type { ReportGapReason, SchedulerFacts } from '../../status/types';
import { isoFromUtc, RAW_TYPES } from './pgtext';
import { factsSql } from './facts-sql';

/** The part of a pg Pool/Client the readers use (tests wrap it to count statements). */
export type Queryable = {
  query: (config: { text: string; values?: unknown[]; rowMode?: 'array'; name?: string; types?: typeof RAW_TYPES }) => Promise<{ rows: unknown[] }>;
};

export interface Registration {
  everyMs: number;
  reportEveryMs: number;
  stallAfterMs: number;
  overdueAfterMs: number;
}

export interface SchedulerRead {
  facts: SchedulerFacts;
  thresholds: Thresholds;
  registration: Registration | null;
  /** The newest stale-write rejection of this lease (a store fact beside the projection's facts), or null. */
  lastRejectionAt: string | null;
}

export interface FactsRead {
  /** Database time of the read (ISO). */
  now: string;
  /** In no particular order. */
  schedulers: SchedulerRead[];
}

const iso = isoFromUtc;

const thresholdsCache = new Map<string, Thresholds>();

/** Thresholds for a scheduler: its registration, else the server defaults (memoised per distinct registration). */
export function thresholdsFor(registration: Registration | null): Thresholds {
  if (registration === null) return DEFAULT_THRESHOLDS;
  // No gapAfterMs: lib/status derives it from the REPORTING epoch's own cadence
  // (progress.reportEveryMs), not from whichever instance registered last.
  const key = `${registration.stallAfterMs}|${registration.overdueAfterMs}`;
  let t = thresholdsCache.get(key);
  if (t === undefined) {
    t = checkedOrDefault({
      stallAfterMs: registration.stallAfterMs,
      overdueAfterMs: registration.overdueAfterMs,
      atRiskFraction: DEFAULT_THRESHOLDS.atRiskFraction,
    });
    if (thresholdsCache.size > 1_000) thresholdsCache.clear();
    thresholdsCache.set(key, t);
  }
  return t;
}

function checkedOrDefault(t: Thresholds): Thresholds {
  try {
    return Object.freeze(checkThresholds(t));
  } catch {
    return DEFAULT_THRESHOLDS;
  }
}

type Cell = string | number | boolean | null;

/** Maps one array row of FACT_COLUMNS order. */
export function mapFactsRow(r: readonly Cell[]): SchedulerRead {
  const n = (i: number) => r[i] as number | null;
  const s = (i: number) => r[i] as string | null;
  const t = (i: number) => iso(r[i] as string);
  const name = r[0] as string;
  const lease =
    s(2) === null
      ? null
      : {
          name,
          holder: s(2)!,
          label: s(3),
          epoch: n(4)!,
          acquiredAt: t(5),
          renewedAt: t(6),
          expiresAt: t(7),
          ttlMs: n(8)!,
          released: r[9] === true,
        };
  const intent = r[10] === null ? null : { disabled: r[10] === true, by: s(11)!, reason: s(12)!, at: t(13) };
  const gapReason = s(23) as ReportGapReason | null;
  const progress =
    n(14) === null
      ? null
      : {
          epoch: n(14)!,
          lastReportAt: t(15),
          lastSeq: n(16)!,
          lastAdvanceAt: t(17),
          inFlight: s(18),
          cursor: n(19),
          reportEveryMs: n(20)!,
          gap: gapReason === null ? null : { from: t(21), to: t(22), reason: gapReason },
        };
  const registration = n(24) === null ? null : { everyMs: n(24)!, reportEveryMs: n(25)!, stallAfterMs: n(26)!, overdueAfterMs: n(27)! };
  const due = s(28) === null ? null : { occurrence: s(28)!, dueAt: t(29) };
  return {
    facts: { name, store: { ok: true }, lease, intent, progress, due },
    thresholds: thresholdsFor(registration),
    registration,
    lastRejectionAt: s(30) === null ? null : t(30),
  };
}

const LIST_SQL = factsSql(false);
const ONE_SQL = factsSql(true);

/** ONE query: every scheduler's facts (union of schedulers, leases, intents), unordered. */
export async function readAllFacts(db: Queryable): Promise<FactsRead> {
  const { rows } = await db.query({ name: 'status_facts_all', text: LIST_SQL, rowMode: 'array', types: RAW_TYPES });
  return toRead(rows as Cell[][]);
}

/** ONE query: one scheduler's facts; `schedulers` is empty when the name is unknown. */
export async function readOneFacts(db: Queryable, name: string): Promise<FactsRead> {
  const { rows } = await db.query({ name: 'status_facts_one', text: ONE_SQL, values: [name], rowMode: 'array', types: RAW_TYPES });
  return toRead(rows as Cell[][]);
}

function toRead(rows: Cell[][]): FactsRead {
  const first = rows[0];
  if (!first) throw new Error('status: facts read returned no row (the statement always returns one)');
  const schedulers: SchedulerRead[] = [];
  for (const row of rows) if (row[0] !== null) schedulers.push(mapFactsRow(row));
  return { now: iso(first[1] as string), schedulers };
}

/** ONE query: the database clock, alone (epoch ms). */
export async function dbNowMs(db: Queryable): Promise<number> {
  const { rows } = await db.query({ name: 'status_now', text: 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8', rowMode: 'array' });
  return (rows[0] as Cell[])[0] as number;
}

/**
 * Reads the facts of all schedulers (or one, or those changed since an
 * earlier read's snapshot) with `now` from the same database clock, and maps rows → `SchedulerFacts` plus per-scheduler
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
import { NO_LABELS, type OccurrenceFacts, type ReportGapReason, type SchedulerFacts, type SchedulerLabels } from '../../status/types';
import { isoFromUtc, RAW_TYPES } from './pgtext';
import { COLUMN, factsSql } from './facts-sql';

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
  /** The statement's snapshot (pg_snapshot text): what a later `readChangedFacts` reads changes since. */
  snapshot: string;
}

/**
 * A row whose times alone moved since the snapshot (./facts-sql.ts, times rows): a renewal
 * (the lease of `epoch` renewed: renewedAt, expiresAt) or a report that said nothing new
 * (the summary of `epoch`: lastReportAt, lastSeq). Every other fact of the scheduler is as read before.
 */
export type TimesMoved =
  | { name: string; kind: 'renewal'; epoch: number; renewedAt: string; expiresAt: string }
  | { name: string; kind: 'report'; epoch: number; lastReportAt: string; lastSeq: number };

/** What changed since a snapshot: schedulers to (re)place, names that are gone, times that moved; or `reset` (read everything again). */
export interface ChangesRead {
  now: string;
  snapshot: string;
  reset: boolean;
  changed: SchedulerRead[];
  removed: string[];
  /** Names in `changed` have none here. */
  moved: TimesMoved[];
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

/** jsonb text → labels (stored valid: the database checks them); most schedulers have none, and pay no parse. */
function labelsOf(text: string | null): SchedulerLabels {
  if (text === null || text === '{}') return NO_LABELS;
  return Object.freeze(JSON.parse(text) as Record<string, string>);
}

/** Maps one array row (rowMode 'array', FACT_COLUMNS order), each cell by its column's name. */
export function mapFactsRow(r: readonly Cell[]): SchedulerRead {
  const num = (column: number) => r[column] as number | null;
  const text = (column: number) => r[column] as string | null;
  const time = (column: number) => iso(r[column] as string);
  const name = r[COLUMN.name] as string;
  const lease =
    text(COLUMN.holder) === null
      ? null
      : {
          name,
          holder: text(COLUMN.holder)!,
          label: text(COLUMN.holder_label),
          epoch: num(COLUMN.epoch)!,
          acquiredAt: time(COLUMN.acquired_at),
          renewedAt: time(COLUMN.renewed_at),
          expiresAt: time(COLUMN.expires_at),
          ttlMs: num(COLUMN.ttl_ms)!,
          released: r[COLUMN.released] === true,
        };
  const intent =
    r[COLUMN.i_disabled] === null
      ? null
      : { disabled: r[COLUMN.i_disabled] === true, by: text(COLUMN.i_by)!, reason: text(COLUMN.i_reason)!, at: time(COLUMN.i_at) };
  const gapReason = text(COLUMN.p_gap_reason) as ReportGapReason | null;
  const progress =
    num(COLUMN.p_epoch) === null
      ? null
      : {
          epoch: num(COLUMN.p_epoch)!,
          lastReportAt: time(COLUMN.p_last_report_at),
          lastSeq: num(COLUMN.p_last_seq)!,
          lastAdvanceAt: time(COLUMN.p_last_advance_at),
          inFlight: text(COLUMN.p_in_flight),
          cursor: num(COLUMN.p_cursor),
          reportEveryMs: num(COLUMN.p_report_every_ms)!,
          gap: gapReason === null ? null : { from: time(COLUMN.p_gap_from), to: time(COLUMN.p_gap_to), reason: gapReason },
        };
  const registration =
    num(COLUMN.s_every_ms) === null
      ? null
      : {
          everyMs: num(COLUMN.s_every_ms)!,
          reportEveryMs: num(COLUMN.s_report_every_ms)!,
          stallAfterMs: num(COLUMN.s_stall_after_ms)!,
          overdueAfterMs: num(COLUMN.s_overdue_after_ms)!,
        };
  const occurrence = (prefix: 'lr_newest' | 'lr_ended') =>
    text(COLUMN[`${prefix}_key`]) === null
      ? null
      : {
          occurrence: text(COLUMN[`${prefix}_key`])!,
          state: text(COLUMN[`${prefix}_state`]) as OccurrenceFacts['state'],
          epoch: num(COLUMN[`${prefix}_epoch`])!,
          exitCode: prefix === 'lr_ended' ? num(COLUMN.lr_ended_exit_code) : null,
          endedAt: prefix === 'lr_ended' && text(COLUMN.lr_ended_at) !== null ? time(COLUMN.lr_ended_at) : null,
        };
  const lastRun = { newest: occurrence('lr_newest'), ended: occurrence('lr_ended') };
  const due = text(COLUMN.due_key) === null ? null : { occurrence: text(COLUMN.due_key)!, dueAt: time(COLUMN.due_at) };
  return {
    facts: { name, store: { ok: true }, lease, intent, progress, due, lastRun, labels: labelsOf(text(COLUMN.labels)) },
    thresholds: thresholdsFor(registration),
    registration,
    lastRejectionAt: text(COLUMN.last_rejection_at) === null ? null : time(COLUMN.last_rejection_at),
  };
}

const LIST_SQL = factsSql('all');
const ONE_SQL = factsSql('one');
const CHANGED_SQL = factsSql('changed');

/** ONE query: every scheduler's facts (union of schedulers, leases, intents), unordered. */
export async function readAllFacts(db: Queryable): Promise<FactsRead> {
  const { rows } = await db.query({ text: LIST_SQL, rowMode: 'array', types: RAW_TYPES });
  return toRead(rows as Cell[][]);
}

/** ONE query: one scheduler's facts; `schedulers` is empty when the name is unknown. */
export async function readOneFacts(db: Queryable, name: string): Promise<FactsRead> {
  const { rows } = await db.query({ text: ONE_SQL, values: [name], rowMode: 'array', types: RAW_TYPES });
  return toRead(rows as Cell[][]);
}

/**
 * ONE query: the facts of every scheduler changed since `snapshot` (an earlier
 * read's), the names deleted since, and the times that alone moved since
 * (renewals, reports that said nothing new). Rows it returns are read in this
 * statement's snapshot, so applying them to what was read at `snapshot`
 * gives exactly the facts a full read now would (./facts-sql.ts, `changed`).
 */
export async function readChangedFacts(db: Queryable, snapshot: string): Promise<ChangesRead> {
  const { rows } = await db.query({ text: CHANGED_SQL, values: [snapshot], rowMode: 'array', types: RAW_TYPES });
  const header = headerOf(rows as Cell[][]);
  const changed: SchedulerRead[] = [];
  const removed: string[] = [];
  const moved: TimesMoved[] = [];
  for (const row of rows as Cell[][]) {
    if (row[COLUMN.name] === null) continue;
    if (row[COLUMN.touched] === true) moved.push(mapTimesRow(row));
    else if (row[COLUMN.present] === true) changed.push(mapFactsRow(row));
    else removed.push(row[COLUMN.name] as string);
  }
  return { ...header, changed, removed, moved };
}

/** A times row: a lease's (epoch filled) or a summary's (p_epoch filled). */
function mapTimesRow(r: readonly Cell[]): TimesMoved {
  const name = r[COLUMN.name] as string;
  if (r[COLUMN.epoch] !== null) {
    return {
      name,
      kind: 'renewal',
      epoch: r[COLUMN.epoch] as number,
      renewedAt: iso(r[COLUMN.renewed_at] as string),
      expiresAt: iso(r[COLUMN.expires_at] as string),
    };
  }
  return {
    name,
    kind: 'report',
    epoch: r[COLUMN.p_epoch] as number,
    lastReportAt: iso(r[COLUMN.p_last_report_at] as string),
    lastSeq: r[COLUMN.p_last_seq] as number,
  };
}

function headerOf(rows: Cell[][]): { now: string; snapshot: string; reset: boolean } {
  const header = rows.find((row) => row[COLUMN.name] === null);
  if (!header) throw new Error('status: facts read returned no header row (the statement always returns one)');
  return { now: iso(header[COLUMN.now] as string), snapshot: header[COLUMN.snapshot] as string, reset: header[COLUMN.reset] === true };
}

function toRead(rows: Cell[][]): FactsRead {
  const { now, snapshot } = headerOf(rows);
  const schedulers: SchedulerRead[] = [];
  for (const row of rows) if (row[COLUMN.name] !== null) schedulers.push(mapFactsRow(row));
  return { now, schedulers, snapshot };
}

/** ONE query: the database clock, alone (epoch ms). */
export async function dbNowMs(db: Queryable): Promise<number> {
  const { rows } = await db.query({ text: 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms' });
  return (rows[0] as { now_ms: number }).now_ms;
}

/**
 * The live facts read: ONE statement returning, for every scheduler (or one
 * by name), its lease row, intent, progress summary, registration and due
 * occurrence, plus `now` from the same database clock. One statement = one
 * snapshot, and a fixed query count however many reports are stored: it reads
 * only the O(schedulers) summary rows, never progress_reports.
 *
 * Always a header row (name NULL) carrying `now`, the statement's snapshot
 * (for the next incremental read) and a reset flag, then one row per
 * scheduler: one query even for an empty store.
 *
 * Times come back as UTC text (`timestamp AT TIME ZONE 'UTC'`, e.g.
 * `2026-11-30 16:00:00.123456`), which the mapper reshapes into ISO-8601
 * strings with string operations — 3–4× cheaper at 10,000 schedulers than
 * epoch numbers through Date objects (measured by bench:status).
 *
 * `lr_*`: the last run's facts (lib/status/last-run.ts judges them): the
 * lease's newest occurrence, and its newest that ended (completed or failed,
 * with the exit code). The change stamp follows what they read: the state
 * (written with the exit code) and the epoch (a resume by a new holder;
 * migration occurrence_exit_code).
 *
 * `labels`: the operator's labels when set (label_overrides), else the
 * registration's (migration scheduler_labels); a label change stamps either
 * table, so the `changed` read re-reads the scheduler whole.
 *
 * `last_rejection_at`: the newest stale-write rejection logged for the lease
 * (not part of the projection: the StaleWritesRejected alert and its metric
 * read it).
 *
 * `due` (only for a registered cadence with nothing reported in flight): the
 * earliest occurrence nobody is working on — the newest occurrence row when it
 * is still `running` (a dead leader's, not resumed); else the slot after the
 * newest row (so a holder stuck between occurrences shows a growing age);
 * else, never run, the first slot since registration. Slots lie on the grid
 * of multiples of every_ms since the Unix epoch, keyed by
 * lib/lease/occurrence-key.ts (the one definition of the key). It may lie in the future
 * (the next one). A dumb mapping: every judgement (overdue or not) stays in
 * lib/status.
 */
import { occurrenceKeySql } from '../../lease';

/** Epoch ms of a timestamptz expression, as float8 (sub-ms fraction kept; callers truncate). */
export const msOf = (expr: string) => `(extract(epoch FROM ${expr}) * 1000)::float8`;

/** A timestamptz as UTC wall time (`timestamp without time zone`), read as text by the mapper. */
const utcOf = (expr: string) => `(${expr}) AT TIME ZONE 'UTC'`;

/**
 * The due slot, given the newest occurrence row `o` (columns key,
 * scheduled_at, running) and the registration `s`: the running one itself,
 * else the slot after it, else the first slot since registration. Shared by
 * the live read and the as-of rebuild so both judge `due` alike.
 */
export const dueSlotOf = (o: string, s: string) => `CASE
    WHEN ${o}.running THEN ${o}.scheduled_at
    WHEN ${o}.key IS NOT NULL THEN ${o}.scheduled_at + ${s}.every_ms * interval '1 millisecond'
    ELSE 'epoch'::timestamptz
      + (ceil(extract(epoch FROM ${s}.registered_at) * 1000 / ${s}.every_ms) * ${s}.every_ms)::float8 * interval '1 millisecond'
  END`;

/** Column order of a facts row (rowMode 'array'); FACT_COLUMNS[i] names column i. Every select list is written by these names (selectList), never by position. */
export const FACT_COLUMNS = [
  'name',
  'now',
  'holder',
  'holder_label',
  'epoch',
  'acquired_at',
  'renewed_at',
  'expires_at',
  'ttl_ms',
  'released',
  'i_disabled',
  'i_by',
  'i_reason',
  'i_at',
  'p_epoch',
  'p_last_report_at',
  'p_last_seq',
  'p_last_advance_at',
  'p_in_flight',
  'p_cursor',
  'p_report_every_ms',
  'p_gap_from',
  'p_gap_to',
  'p_gap_reason',
  's_every_ms',
  's_report_every_ms',
  's_stall_after_ms',
  's_overdue_after_ms',
  'due_key',
  'due_at',
  'last_rejection_at',
  'lr_newest_key',
  'lr_newest_state',
  'lr_newest_epoch',
  'lr_ended_key',
  'lr_ended_state',
  'lr_ended_epoch',
  'lr_ended_exit_code',
  'lr_ended_at',
  // The scheduler's labels as jsonb text: an operator's (label_overrides) when set, else its registration's.
  'labels',
  // Below: only the header row (name NULL) fills `snapshot` and `reset`; data rows fill `present`.
  'present',
  'snapshot',
  'reset',
  // A times row (source 'changed' only): `touched` true, and only the moved times of ONE table filled —
  // a lease's epoch, renewed_at, expires_at; or a summary's p_epoch, p_last_report_at, p_last_seq.
  'touched',
] as const;

/** Index of a column in a facts row. */
export const COLUMN = Object.fromEntries(FACT_COLUMNS.map((name, i) => [name, i])) as { [K in (typeof FACT_COLUMNS)[number]]: number };

/** Whether the stamp `xid` (a transaction id) is not visible in the snapshot `$1`: written since. */
const since = (xid: string) => `(${xid} >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(${xid}, $1::pg_snapshot))`;

/** Rows whose change stamp (migration status_change_stamps) is not visible in the snapshot `$1`. */
const changedSince = (table: string, column: string) => `SELECT t.${column} AS name FROM ${table} t WHERE ${since('t.change_xid')}`;

/**
 * leases and progress_summaries rows written since `$1` (touch_xid ⊇ change_xid, migration
 * rejudge_only_changes): `changed` when their change stamp is too, else only their times moved.
 */
const touchedSince = (table: string, column: string, times: string) =>
  `SELECT t.${column} AS name, ${since('t.change_xid')} AS changed, t.epoch, ${times} FROM ${table} t WHERE ${since('t.touch_xid')}`;

/**
 * Which schedulers a facts read covers:
 * - `all`: every name in schedulers ∪ leases ∪ scheduler_intents;
 * - `one`: the name `$1`;
 * - `changed`: every name with a row changed, or deleted (a tombstone), since
 *   the snapshot `$1` (pg_snapshot text from an earlier read's header): a change
 *   is "since" when its transaction is not visible in that snapshot — every such
 *   transaction has an id ≥ the snapshot's xmin, which the change_xid indexes
 *   find. A name no longer in schedulers ∪ leases ∪ intents comes back with
 *   `present` false (it was deleted). The header's `reset` says a TRUNCATE
 *   happened since: then only a full read is right. A lease or summary row whose
 *   times alone moved since (a renewal; a report that says nothing new: touched,
 *   not changed) comes back as a times row (`touched`, see FACT_COLUMNS) unless
 *   its name is read whole anyway: one scan of each of the two busy tables finds both.
 */
export type FactsSource = 'all' | 'one' | 'changed';

function namesSql(source: FactsSource): string {
  switch (source) {
    case 'all':
      return 'SELECT name FROM schedulers UNION SELECT name FROM leases UNION SELECT lease FROM scheduler_intents';
    case 'one':
      return 'SELECT name FROM schedulers WHERE name = $1 UNION SELECT name FROM leases WHERE name = $1 UNION SELECT lease FROM scheduler_intents WHERE lease = $1';
    case 'changed':
      return [
        changedSince('schedulers', 'name'),
        'SELECT name FROM lease_touches WHERE changed',
        changedSince('scheduler_intents', 'lease'),
        changedSince('label_overrides', 'name'),
        'SELECT name FROM summary_touches WHERE changed',
        changedSince('occurrences', 'lease'),
        changedSince('stale_write_rejections', 'lease'),
        changedSince('status_deletions', 'name'),
      ].join('\n    UNION ');
    default: {
      const never: never = source;
      return never;
    }
  }
}

/** A select list in FACT_COLUMNS order, each expression given by its column's name; the columns not given are NULL. */
function selectList(values: Partial<Record<(typeof FACT_COLUMNS)[number], string>>): string {
  return FACT_COLUMNS.map((column) => values[column] ?? 'NULL').join(',\n  ');
}

/** A times row per touched lease or summary not read whole (the `names`): the moved times only. Last: a UNION types its NULLs by the rows before. */
function timesRowsSql(): string {
  // NOT IN over the names, not NOT EXISTS: the planner guesses one row for each materialized CTE (it cannot
  // estimate the snapshot filter), and planned the anti join as a nested loop — touches × names comparisons,
  // 50 million and 8–17 s at 10,000 schedulers when half of them had changed. NOT IN over a subquery is a
  // hashed subplan at any estimate that fits work_mem: linear. `names` holds no NULL (every branch selects a
  // key column), so NOT IN means exactly what NOT EXISTS did.
  const notWhole = 'NOT t.changed AND t.name NOT IN (SELECT n.name FROM names n)';
  return `
SELECT ${selectList({ name: 't.name', epoch: 't.epoch::float8', renewed_at: utcOf('t.renewed_at'), expires_at: utcOf('t.expires_at'), touched: 'true' })}
FROM lease_touches t WHERE ${notWhole}
UNION ALL
SELECT ${selectList({ name: 't.name', p_epoch: 't.epoch::float8', p_last_report_at: utcOf('t.last_report_at'), p_last_seq: 't.last_seq', touched: 'true' })}
FROM summary_touches t WHERE ${notWhole}`;
}

/** A scheduler's row of a facts read, by column (the joins are factsSql's). */
const schedulerRow: Partial<Record<(typeof FACT_COLUMNS)[number], string>> = {
  name: 'n.name',
  holder: 'l.holder',
  holder_label: 'l.holder_label',
  epoch: 'l.epoch::float8',
  acquired_at: utcOf('l.acquired_at'),
  renewed_at: utcOf('l.renewed_at'),
  expires_at: utcOf('l.expires_at'),
  ttl_ms: 'l.ttl_ms',
  released: 'l.released_at IS NOT NULL',
  i_disabled: 'i.disabled',
  i_by: 'i.by',
  i_reason: 'i.reason',
  i_at: utcOf('i.at'),
  p_epoch: 'p.epoch::float8',
  p_last_report_at: utcOf('p.last_report_at'),
  p_last_seq: 'p.last_seq',
  p_last_advance_at: utcOf('p.last_advance_at'),
  p_in_flight: 'p.in_flight',
  p_cursor: 'p.cursor::float8',
  p_report_every_ms: 'p.report_every_ms',
  p_gap_from: utcOf('p.gap_from'),
  p_gap_to: utcOf('p.gap_to'),
  p_gap_reason: 'p.gap_reason',
  s_every_ms: 's.every_ms',
  s_report_every_ms: 's.report_every_ms',
  s_stall_after_ms: 's.stall_after_ms',
  s_overdue_after_ms: 's.overdue_after_ms',
  due_key: 'd.key',
  due_at: utcOf('d.slot'),
  // The newest stale-write rejection of the lease (index stale_write_rejections_lease_at): a store fact for alerts.
  last_rejection_at: utcOf('(SELECT max(r.at) FROM stale_write_rejections r WHERE r.lease = n.name)'),
  lr_newest_key: 'lo.key',
  lr_newest_state: 'lo.state',
  lr_newest_epoch: 'lo.epoch::float8',
  lr_ended_key: 'en.key',
  lr_ended_state: 'en.state',
  lr_ended_epoch: 'en.epoch::float8',
  lr_ended_exit_code: 'en.exit_code',
  lr_ended_at: utcOf('en.completed_at'),
  labels: 'COALESCE(lb.labels, s.labels)::text',
  present: '(s.name IS NOT NULL OR l.name IS NOT NULL OR i.lease IS NOT NULL)',
};

/**
 * ONE statement: a header row (name NULL) with the database's `now`, the
 * statement's snapshot and the reset flag, then one row per scheduler of
 * `source`. `now` is read once (a materialized CTE), after the snapshot was taken.
 */
export function factsSql(source: FactsSource): string {
  const reset =
    source === 'changed'
      ? `EXISTS (SELECT 1 FROM status_resets r WHERE r.change_xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(r.change_xid, $1::pg_snapshot))`
      : 'false';
  const touches =
    source === 'changed'
      ? `lease_touches AS MATERIALIZED (${touchedSince('leases', 'name', 't.renewed_at, t.expires_at')}),
  summary_touches AS MATERIALIZED (${touchedSince('progress_summaries', 'lease', 't.last_report_at, t.last_seq')}),
  `
      : '';
  return `
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now, pg_current_snapshot() AS snap),
  ${touches}names AS (${namesSql(source)})
SELECT ${selectList({ name: 'NULL::text', now: utcOf('c.now'), present: 'NULL::boolean', snapshot: 'c.snap::text', reset, touched: 'NULL::boolean' })}
FROM c
UNION ALL
SELECT ${selectList(schedulerRow)}
FROM names n
LEFT JOIN leases l ON l.name = n.name
LEFT JOIN scheduler_intents i ON i.lease = n.name
LEFT JOIN progress_summaries p ON p.lease = n.name
LEFT JOIN schedulers s ON s.name = n.name
LEFT JOIN label_overrides lb ON lb.name = n.name
-- The latest occurrence row of the lease (index occurrences_lease_scheduled): the due slot's and the last run's.
LEFT JOIN LATERAL (
  SELECT o.key, o.scheduled_at, o.state = 'running' AS running, o.state, o.epoch, o.exit_code, o.completed_at FROM occurrences o
  WHERE o.lease = n.name
  ORDER BY o.scheduled_at DESC LIMIT 1
) lo ON true
LEFT JOIN LATERAL (
  SELECT CASE WHEN lo.running THEN lo.key ELSE ${occurrenceKeySql('n.name', 'x.slot')} END AS key, x.slot
  FROM (SELECT ${dueSlotOf('lo', 's')} AS slot) x
  -- Only where it can matter: a registered cadence and nothing in flight.
  WHERE s.every_ms > 0 AND p.in_flight IS NULL
) d ON true
-- The last run (lib/status/last-run.ts): the newest occurrence that ended — the latest row itself,
-- or, only while that one runs, a second probe of the same index.
LEFT JOIN LATERAL (
  SELECT lo.key, lo.state, lo.epoch, lo.exit_code, lo.completed_at WHERE NOT lo.running
  UNION ALL
  (SELECT o.key, o.state, o.epoch, o.exit_code, o.completed_at FROM occurrences o
   WHERE lo.running AND o.lease = n.name AND o.state <> 'running' ORDER BY o.scheduled_at DESC LIMIT 1)
) en ON true${
    source === 'changed'
      ? `
UNION ALL${timesRowsSql()}`
      : ''
  }`;
}

/**
 * The live facts read: ONE statement returning, for every scheduler (or one
 * by name), its lease row, intent, progress summary, registration and due
 * occurrence, plus `now` from the same database clock. One statement = one
 * snapshot, and a fixed query count however many reports are stored: it reads
 * only the O(schedulers) summary rows, never progress_reports.
 *
 * Always at least one row: with no scheduler at all, one row whose name is
 * NULL carries `now`, so the count stays one query even for an empty store.
 *
 * Times come back as UTC text (`timestamp AT TIME ZONE 'UTC'`, e.g.
 * `2026-11-30 16:00:00.123456`), which the mapper reshapes into ISO-8601
 * strings with string operations — 3–4× cheaper at 10,000 schedulers than
 * epoch numbers through Date objects (measured by bench:status).
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
import { occurrenceKeySql } from '../../lease/occurrence-key';

/** Epoch ms of a timestamptz expression, as float8 (sub-ms fraction kept; callers truncate). */
export const msOf = (expr: string) => `(extract(epoch FROM ${expr}) * 1000)::float8`;

/** A timestamptz as UTC wall time (`timestamp without time zone`), read as text by the mapper. */
export const utcOf = (expr: string) => `(${expr}) AT TIME ZONE 'UTC'`;

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

/** Column order of a facts row (rowMode 'array'); FACT_COLUMNS[i] names column i. */
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
] as const;

/** `$1`: a scheduler name when `byName`, else no parameter. */
export function factsSql(byName: boolean): string {
  const only = (column: string) => (byName ? ` WHERE ${column} = $1` : '');
  return `
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now),
  names AS (
    SELECT name FROM schedulers${only('name')}
    UNION SELECT name FROM leases${only('name')}
    UNION SELECT lease FROM scheduler_intents${only('lease')}
  )
SELECT n.name, ${utcOf('c.now')},
  l.holder, l.holder_label, l.epoch::float8, ${utcOf('l.acquired_at')}, ${utcOf('l.renewed_at')}, ${utcOf('l.expires_at')},
  l.ttl_ms, l.released_at IS NOT NULL,
  i.disabled, i.by, i.reason, ${utcOf('i.at')},
  p.epoch::float8, ${utcOf('p.last_report_at')}, p.last_seq, ${utcOf('p.last_advance_at')}, p.in_flight, p.cursor::float8,
  p.report_every_ms, ${utcOf('p.gap_from')}, ${utcOf('p.gap_to')}, p.gap_reason,
  s.every_ms, s.report_every_ms, s.stall_after_ms, s.overdue_after_ms,
  d.key, ${utcOf('d.slot')},
  -- The newest stale-write rejection of the lease (index stale_write_rejections_lease_at): a store fact for alerts.
  ${utcOf('(SELECT max(r.at) FROM stale_write_rejections r WHERE r.lease = n.name)')}
FROM c
LEFT JOIN names n ON true
LEFT JOIN leases l ON l.name = n.name
LEFT JOIN scheduler_intents i ON i.lease = n.name
LEFT JOIN progress_summaries p ON p.lease = n.name
LEFT JOIN schedulers s ON s.name = n.name
-- The latest occurrence row of the lease (index occurrences_lease_scheduled).
LEFT JOIN LATERAL (
  SELECT o.key, o.scheduled_at, o.state = 'running' AS running FROM occurrences o
  WHERE o.lease = n.name AND s.every_ms > 0 AND p.in_flight IS NULL
  ORDER BY o.scheduled_at DESC LIMIT 1
) lo ON true
LEFT JOIN LATERAL (
  SELECT CASE WHEN lo.running THEN lo.key ELSE ${occurrenceKeySql('n.name', 'x.slot')} END AS key, x.slot
  FROM (SELECT ${dueSlotOf('lo', 's')} AS slot) x
  -- Only where it can matter: a registered cadence and nothing in flight.
  WHERE s.every_ms > 0 AND p.in_flight IS NULL
) d ON true`;
}

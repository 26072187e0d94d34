/**
 * What the pruner deletes, per table: a SELECT of the ctids of at most
 * `limit` rows past retention. The same SQL decides in the read (is there
 * more?) and in the fenced DELETE, which re-evaluates it in its own snapshot,
 * so a row is deleted only if it is past retention when the delete runs.
 *
 * Guarantees (the rows each rule never selects)
 * - lease_events and lease_event_days (the events folded a day to a row):
 *   the newest event at or before the cutoff of each lease — the anchor
 *   every as-of rebuild of a later instant starts from — row or day.
 * - occurrences: running ones that are still the lease's newest (work in
 *   flight, however long it takes), and the newest of each lease (what the
 *   status reads as its latest occurrence). A running occurrence with a newer one beside it was
 *   abandoned — interrupted, and its slot passed before anyone resumed it
 *   (the runtime only ever claims the slot due now) — and goes like a
 *   completed one once past retention; kept, it would stay forever.
 * - health_changes (the strips' rollup, kept as long as progress reports):
 *   the newest row at or before the cutoff of each scheduler that still
 *   exists (a lease or a registration) — the health carried into the oldest
 *   window; a deleted scheduler's rows all go once past retention.
 * - Everything else by its time column only (append-only logs: nobody
 *   updates an old row, so no batch waits on a writer, nor a writer on it).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  alertEventDays,
  alertEvents,
  healthChanges,
  healthObservedMinutes,
  leaseEventDays,
  leaseEvents,
  occurrenceHours,
  occurrences,
  renewalGapHours,
  staleWriteRejections,
} from '../../../db/schema';
import type { RetentionKind } from '../../retention';

export interface Cutoffs {
  /** Per kind: rows older than this instant (ISO, database time) are past retention. */
  readonly before: Readonly<Record<RetentionKind, string>>;
}

export interface PruneRule {
  /** Step name (also the job's step). */
  readonly step: string;
  readonly table: PgTable;
  /** `SELECT <ctid> …` of at most `limit` rows past retention. */
  victims(cutoffs: Cutoffs, limit: number): SQL;
}

const at = (cutoffs: Cutoffs, kind: RetentionKind) => sql`${cutoffs.before[kind]}::timestamptz`;

/** Occurrence `o` has a newer one of its lease beside it: it is done with, completed or abandoned. */
const SUPERSEDED = sql`EXISTS (SELECT 1 FROM occurrences n WHERE n.lease = o.lease AND n.scheduled_at > o.scheduled_at)`;

/**
 * A folded day of the lease after the instant, all of it past retention: it holds an event newer than
 * the instant and at or before the cutoff (every day row holds one, and all of its day is after the instant).
 */
const dayPastAfter = (c: Cutoffs, lease: string, instant: string) =>
  sql`EXISTS (SELECT 1 FROM lease_event_days n WHERE n.lease = ${sql.raw(lease)} AND n.day > ${sql.raw(instant)}
        AND n.day <= ${at(c, 'leaseEvents')} - interval '1 day')`;

export const PRUNE_RULES: readonly PruneRule[] = [
  {
    step: 'occurrences',
    table: occurrences,
    victims: (c, limit) => sql`SELECT o.ctid FROM occurrences o
      WHERE o.scheduled_at < ${at(c, 'occurrences')} AND ${SUPERSEDED}
      LIMIT ${limit}::int`,
  },
  {
    step: 'occurrence-hours',
    table: occurrenceHours,
    // Folded occurrences (./index.ts, migration 0031_occurrence_hours): an hour row goes once its last slot is past retention.
    victims: (c, limit) => sql`SELECT h.ctid FROM occurrence_hours h WHERE h.hour <= ${at(c, 'occurrences')} - interval '1 hour' LIMIT ${limit}::int`,
  },
  {
    step: 'lease-events',
    table: leaseEvents,
    victims: (c, limit) => sql`SELECT e.ctid FROM lease_events e
      WHERE e.at < ${at(c, 'leaseEvents')}
        AND (EXISTS (SELECT 1 FROM lease_events n WHERE n.lease = e.lease AND n.at <= ${at(c, 'leaseEvents')} AND (n.at, n.id) > (e.at, e.id))
          OR ${dayPastAfter(c, 'e.lease', 'e.at')})
      LIMIT ${limit}::int`,
  },
  {
    step: 'lease-event-days',
    table: leaseEventDays,
    // Folded events (./index.ts, migration 0034_lease_event_days): a day row goes once all of its day is
    // past retention and a later event is too (a row, or a later day all past retention).
    victims: (c, limit) => sql`SELECT d.ctid FROM lease_event_days d
      WHERE d.day <= ${at(c, 'leaseEvents')} - interval '1 day'
        AND (EXISTS (SELECT 1 FROM lease_events n WHERE n.lease = d.lease AND n.at >= d.day + interval '1 day' AND n.at <= ${at(c, 'leaseEvents')})
          OR ${dayPastAfter(c, 'd.lease', "d.day + interval '1 day' - interval '1 microsecond'")})
      LIMIT ${limit}::int`,
  },
  {
    step: 'renewal-gaps',
    table: renewalGapHours,
    // An hour row goes once its last minute is past retention (the whole hour is older than the cutoff).
    victims: (c, limit) => sql`SELECT g.ctid FROM renewal_gap_hours g WHERE g.hour <= ${at(c, 'renewals')} - interval '1 hour' LIMIT ${limit}::int`,
  },
  {
    step: 'rejections',
    table: staleWriteRejections,
    victims: (c, limit) => sql`SELECT r.ctid FROM stale_write_rejections r WHERE r.at < ${at(c, 'rejections')} LIMIT ${limit}::int`,
  },
  {
    step: 'health-changes',
    table: healthChanges,
    victims: (c, limit) => sql`SELECT h.ctid FROM health_changes h
      WHERE h.at < ${at(c, 'reports')}
        AND (EXISTS (SELECT 1 FROM health_changes n WHERE n.name = h.name AND n.at > h.at AND n.at <= ${at(c, 'reports')})
          OR NOT (EXISTS (SELECT 1 FROM leases l WHERE l.name = h.name) OR EXISTS (SELECT 1 FROM schedulers s WHERE s.name = h.name)))
      LIMIT ${limit}::int`,
  },
  {
    step: 'health-observed',
    table: healthObservedMinutes,
    victims: (c, limit) => sql`SELECT m.ctid FROM health_observed_minutes m WHERE m.minute < ${at(c, 'reports')} LIMIT ${limit}::int`,
  },
  {
    step: 'alert-events',
    table: alertEvents,
    victims: (c, limit) => sql`SELECT a.ctid FROM alert_events a WHERE a.at < ${at(c, 'alertEvents')} LIMIT ${limit}::int`,
  },
  {
    step: 'alert-event-days',
    table: alertEventDays,
    // Folded transitions (./index.ts, migration 0032_alert_event_days): a day row goes once all of its day is past retention.
    victims: (c, limit) => sql`SELECT d.ctid FROM alert_event_days d WHERE d.day <= ${at(c, 'alertEvents')} - interval '1 day' LIMIT ${limit}::int`,
  },
];

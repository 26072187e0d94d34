/**
 * Leaseboard's schema: the facts the lease authority, the scheduler runtime and
 * the status service share. Every timestamp here is written by the database
 * clock (`clock_timestamp()`) inside the statement that decides; no column is
 * ever filled from an application clock.
 *
 * Lease rows are never deleted (release keeps the row), so epochs are never
 * reused. Event tables are append-only; summaries are kept current in the same
 * statement or transaction that appends, so readers are O(schedulers).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'string', precision: 6 });

/**
 * How an audited operator's identity was established: the SSO proxy, the operator token with a typed
 * name, a command run with database access, or a service token (`by` is the token's name). The contract's list is lib/api/limits.ts IDENTIFIED_BY
 * (db imports nothing of lib; lib/api/limits.unit.test.ts holds the two equal).
 */
export const IDENTIFIED_BY = ['sso', 'token', 'cli', 'service_token'] as const;
const identifiedBy = () => text('identified_by', { enum: IDENTIFIED_BY });
const epochCol = (name: string) => bigint(name, { mode: 'number' });

/** PostgreSQL's 64-bit transaction id (never wraps), read as text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });
/** Scheduler labels, key → value (lib/limits/labels.ts is the rule; the database checks it too). */
const labelsCol = (name: string) => jsonb(name).$type<Record<string, string>>();
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The change stamp the status service reads incrementally (lib/server/live/facts-sql.ts):
 * the id of the transaction that last changed what the status projection reads from
 * the row. Inserts take the default; updates are stamped by the writer or, for any
 * other writer, by a trigger (migration status_change_triggers); deletions leave a
 * tombstone in `status_deletions`. Indexed where rows change rarely; NOT on the two
 * tables every holder updates every few seconds (leases, progress_summaries): an
 * index on a column every update changes rules out HOT updates, so each renewal
 * would write every index and leave dead index entries behind. Those two are
 * scanned instead (O(schedulers), a few ms at 100,000) with fillfactor 80 so
 * their updates stay on the page (migration status_change_triggers).
 */
const changeXid = () =>
  xid8('change_xid')
    .notNull()
    .default(sql`pg_current_xact_id()`);

/**
 * `touch_xid`, on leases and progress_summaries only: the transaction that last
 * wrote the row at all — a change (then also `change_xid`) or a move of its times
 * alone (a renewal: renewed_at/expires_at; a report that says nothing new:
 * last_report_at/last_seq). The status service re-reads changed rows whole and
 * only the times of rows merely touched (lib/server/live/facts-sql.ts); a writer
 * that stamps neither column is stamped as a change by a trigger (migration
 * rejudge_only_changes). Not indexed, like change_xid on these two tables.
 */
const touchXid = () =>
  xid8('touch_xid')
    .notNull()
    .default(sql`pg_current_xact_id()`);

/**
 * The server's limits on a lease's ttl, in ms: the one source of the range that the
 * lease configuration validates (lib/lease/config.ts) and that the CHECK on
 * `leases.ttl_ms` below is generated from (migration lease_ttl_range);
 * lib/lease/config.int.test.ts runs the one against the other.
 */
export const LEASE_TTL_RANGE_MS = Object.freeze({ floor: 1_000, ceiling: 10 * 60_000 });

/** One row per lease name; the authority's current state. */
export const leases = pgTable(
  'leases',
  {
    name: text('name').primaryKey(),
    holder: text('holder').notNull(),
    holderLabel: text('holder_label'),
    epoch: epochCol('epoch').notNull(),
    acquiredAt: ts('acquired_at').notNull(),
    renewedAt: ts('renewed_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    ttlMs: integer('ttl_ms').notNull(),
    releasedAt: ts('released_at'),
    /** The previous tenure, as the granting statement found it under its row lock (for the lease event). */
    previousEpoch: epochCol('previous_epoch'),
    previousHolder: text('previous_holder'),
    previousEndedAt: ts('previous_ended_at'),
    previousReleased: boolean('previous_released'),
    /** The previous tenure's last renewal (for the event: where its final renewal gap began). */
    previousRenewedAt: ts('previous_renewed_at'),
    /** The renewal-gap rollup bucket still open for the current epoch (minute start). */
    gapBucket: ts('gap_bucket'),
    gapBucketMaxMs: integer('gap_bucket_max_ms'),
    gapBucketRenewals: integer('gap_bucket_renewals'),
    changeXid: changeXid(),
    touchXid: touchXid(),
  },
  (t) => [
    check('leases_epoch_positive', sql`${t.epoch} > 0`),
    // Epochs travel as JavaScript numbers (API, metrics, the archive): exact below 2^53.
    check('leases_epoch_exact_in_js', sql`${t.epoch} < 9007199254740992`),
    check('leases_ttl_range', sql`${t.ttlMs} BETWEEN ${sql.raw(String(LEASE_TTL_RANGE_MS.floor))} AND ${sql.raw(String(LEASE_TTL_RANGE_MS.ceiling))}`),
  ],
);

/** What a lease event records: a grant over nothing or a release (`acquired`), a grant over an expired tenure (`taken_over`), a release. */
export const LEASE_EVENT_KINDS = ['acquired', 'taken_over', 'released'] as const;
export type LeaseEventKind = (typeof LEASE_EVENT_KINDS)[number];

/** Why the fence refused a write (lib/lease/fence.ts; the fence's database functions raise them). */
export const REJECTION_REASONS = ['stale_epoch', 'expired', 'released', 'no_lease'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Authority history: enough to rebuild every epoch's tenure `[acquired, end)`. */
export const leaseEvents = pgTable(
  'lease_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    lease: text('lease').notNull(),
    kind: text('kind', { enum: LEASE_EVENT_KINDS }).notNull(),
    epoch: epochCol('epoch').notNull(),
    holder: text('holder').notNull(),
    holderLabel: text('holder_label'),
    at: ts('at').notNull(),
    previousEpoch: epochCol('previous_epoch'),
    previousHolder: text('previous_holder'),
    /** When the previous epoch's tenure ended: its release, or its expiry. */
    previousEndedAt: ts('previous_ended_at'),
    /**
     * The last renewal of the tenure this event ends (a grant: the previous
     * epoch's; a release: its own): from there to the end, nobody renewed —
     * history counts that span as a renewal gap. Null before it was recorded.
     */
    lastRenewedAt: ts('last_renewed_at'),
  },
  (t) => [index('lease_events_lease_at').on(t.lease, t.at), index('lease_events_at').on(t.at)],
);

/**
 * Old lease events, a day to a row (migration 0034_lease_event_days, folded by the pruner): per lease
 * and UTC day, event i is `nums[i]` — id, µs after the day × 4 + kind (its place in
 * LEASE_EVENT_KINDS), epoch, previous epoch, µs from the previous tenure's end and from the last
 * renewal to the event — and the i-th of the unit-separator-joined holders and labels (a null label
 * is U+001E). SQL reads them back with leaseboard_lease_log. previous_holder is not kept.
 */
export const leaseEventDays = pgTable(
  'lease_event_days',
  {
    lease: text('lease').notNull(),
    day: ts('day').notNull(),
    /** A two-dimensional array, [event][6]; drizzle has no type for it. */
    nums: bigint('nums', { mode: 'number' }).array().notNull(),
    holders: text('holders').notNull(),
    labels: text('labels').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lease, t.day] }), index('lease_event_days_day').on(t.day)],
);

/**
 * Bounded renewal history, an hour to a row (migration 0030_renewal_gap_hours): per lease, epoch
 * and UTC hour, `maxGapMs[i]` is the longest gap between renewals closed in minute i − 1 of the
 * hour (null: no renewal closed that minute), `renewals` the renewals of the whole hour.
 */
export const renewalGapHours = pgTable(
  'renewal_gap_hours',
  {
    lease: text('lease').notNull(),
    epoch: epochCol('epoch').notNull(),
    hour: ts('hour').notNull(),
    maxGapMs: integer('max_gap_ms').array().notNull(),
    renewals: integer('renewals').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lease, t.hour, t.epoch] }), index('renewal_gap_hours_hour').on(t.hour)],
);

/** Fenced writes refused at the resource because their epoch was not current. */
export const staleWriteRejections = pgTable(
  'stale_write_rejections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    lease: text('lease').notNull(),
    attemptedEpoch: epochCol('attempted_epoch').notNull(),
    currentEpoch: epochCol('current_epoch'),
    resource: text('resource').notNull(),
    reason: text('reason', { enum: REJECTION_REASONS }).notNull(),
    at: ts('at').notNull(),
    /** For the status service's incremental read: a new rejection changes its lease's alert evidence. */
    changeXid: changeXid(),
  },
  (t) => [
    index('stale_write_rejections_lease_at').on(t.lease, t.at),
    index('stale_write_rejections_change_xid').on(t.changeXid),
    index('stale_write_rejections_at').on(t.at),
  ],
);

/** Operator intent per lease: an explicit choice automation never overturns. */
export const schedulerIntents = pgTable(
  'scheduler_intents',
  {
    lease: text('lease').primaryKey(),
    disabled: boolean('disabled').notNull(),
    by: text('by').notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
    changeXid: changeXid(),
  },
  (t) => [index('scheduler_intents_change_xid').on(t.changeXid)],
);

/** Every intent change, append-only. */
export const intentAudit = pgTable(
  'intent_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    lease: text('lease').notNull(),
    disabled: boolean('disabled').notNull(),
    by: text('by').notNull(),
    /** NULL: a change made before this was recorded. */
    identifiedBy: identifiedBy(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('intent_audit_lease_at').on(t.lease, t.at)],
);

/** Scheduler registration: cadence and reporting period the status service judges by. */
export const schedulers = pgTable(
  'schedulers',
  {
    name: text('name').primaryKey(),
    everyMs: integer('every_ms').notNull(),
    reportEveryMs: integer('report_every_ms').notNull(),
    stallAfterMs: integer('stall_after_ms').notNull(),
    overdueAfterMs: integer('overdue_after_ms').notNull(),
    registeredAt: ts('registered_at').notNull(),
    /** The first registration of this name: kept by every later one (history starts here, never before). */
    firstRegisteredAt: ts('first_registered_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    /** The labels the newest registration declared (lib/limits/labels.ts; checked by leaseboard_labels_ok, migration scheduler_labels). */
    labels: labelsCol('labels')
      .notNull()
      .default(sql`'{}'::jsonb`),
    changeXid: changeXid(),
  },
  (t) => [index('schedulers_change_xid').on(t.changeXid), check('schedulers_labels_ok', sql`leaseboard_labels_ok(${t.labels})`)],
);

/**
 * An operator's labels for a scheduler (migration scheduler_labels): when `labels` is set, they ARE the
 * scheduler's labels, whatever a registration declares (automation never overturns a choice,
 * invariant 9); NULL: the operator handed labels back to the registration. Written only by the operator
 * role, every change audited in label_audit. Bounded: one row per scheduler name an operator labelled (its
 * key), at most 32 labels each (the CHECK).
 */
export const labelOverrides = pgTable(
  'label_overrides',
  {
    name: text('name').primaryKey(),
    labels: labelsCol('labels'),
    by: text('by').notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
    changeXid: changeXid(),
  },
  (t) => [
    index('label_overrides_change_xid').on(t.changeXid),
    check('label_overrides_labels_ok', sql`${t.labels} IS NULL OR leaseboard_labels_ok(${t.labels})`),
  ],
);

/**
 * Every operator label change, append-only and never pruned, like the other audit trails: from → to
 * (NULL: the registration's labels), who, why, when. Bounded by people: a row per operator change, each
 * with a reason (human speed, a few hundred bytes), as intent_audit is.
 */
export const labelAudit = pgTable(
  'label_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scheduler: text('scheduler').notNull(),
    fromLabels: labelsCol('from_labels'),
    toLabels: labelsCol('to_labels'),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('label_audit_scheduler_at').on(t.scheduler, t.at), index('label_audit_at').on(t.at)],
);

/**
 * "Run now" requests (lib/actions/run-now.ts): an operator asks the current holder of a lease to start an
 * occurrence now, keyed `lease@requested_at`, under its lease and fenced like any other. Each row is also
 * the action's audit: who, why, when, the holder and epoch asked; the holder marks it taken (with the
 * occurrence); an untaken request past `expires_at` is expired and never run. At most one pending per
 * scheduler (the action refuses a second while one is pending). Bounded by people, like the other audit
 * trails: a row per operator request, never pruned.
 */
export const runRequests = pgTable(
  'run_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    lease: text('lease').notNull(),
    requestedAt: ts('requested_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    holder: text('holder').notNull(),
    epoch: epochCol('epoch').notNull(),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    takenAt: ts('taken_at'),
    takenEpoch: epochCol('taken_epoch'),
    occurrence: text('occurrence'),
  },
  (t) => [index('run_requests_lease_requested_at').on(t.lease, t.requestedAt), index('run_requests_requested_at').on(t.requestedAt)],
);

/**
 * One scheduled run, keyed `lease@scheduled-instant`; claimed, resumed and completed by key.
 * Fenced (lib/lease/fence.ts): every row carries the `lease` and `epoch` that last wrote it.
 * One row per slot; pruned by the retention job (lib/jobs/retention-pruner) once completed, past
 * retention and not the lease's latest.
 */
export const occurrences = pgTable(
  'occurrences',
  {
    key: text('key').primaryKey(),
    lease: text('lease').notNull(),
    scheduledAt: ts('scheduled_at').notNull(),
    /** `failed`: a delegated step (a command the exec runner ran) ended with a non-zero exit code, `exit_code`. */
    state: text('state', { enum: ['running', 'completed', 'failed'] }).notNull(),
    epoch: epochCol('epoch').notNull(),
    claimedAt: ts('claimed_at').notNull(),
    /** When the occurrence ended, completed or failed. */
    completedAt: ts('completed_at'),
    /** Only for `failed`: the command's exit code (128 + N when a signal N ended it). */
    exitCode: integer('exit_code'),
    /** Index of the job step in flight (0-based); `cursor` is that step's position. */
    step: integer('step').notNull().default(0),
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    /** Stamped only when key, lease, scheduled_at, state or epoch change (the status reads nothing else). */
    changeXid: changeXid(),
  },
  (t) => [
    index('occurrences_lease_scheduled').on(t.lease, t.scheduledAt),
    index('occurrences_change_xid').on(t.changeXid),
    index('occurrences_scheduled_at').on(t.scheduledAt),
  ],
);

/**
 * Old occurrences, an hour to a row (migration 0031_occurrence_hours, folded by the pruner): per lease
 * and UTC hour, occurrence i was scheduled `scheduledMs[i]` ms after the hour, claimed `claimedUs[i]` µs
 * after its slot, and ended `endedUs[i]` µs after its claim (null: never ended); its key is its slot's.
 */
export const occurrenceHours = pgTable(
  'occurrence_hours',
  {
    lease: text('lease').notNull(),
    hour: ts('hour').notNull(),
    scheduledMs: integer('scheduled_ms').array().notNull(),
    claimedUs: bigint('claimed_us', { mode: 'number' }).array().notNull(),
    endedUs: bigint('ended_us', { mode: 'number' }).array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.lease, t.hour] }), index('occurrence_hours_hour').on(t.hour)],
);

/**
 * Append-only progress reports (holder → store). Partitioned by `reported_at` (migration
 * 0010: partitions of `LEASEBOARD_PARTITION_WIDTH`, a day by default, plus a default
 * partition as a safety net), created ahead and dropped whole past retention by the
 * retention job; `report_partitions` lists them. The key includes the partition key.
 */
export const progressReports = pgTable(
  'progress_reports',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    lease: text('lease').notNull(),
    epoch: epochCol('epoch').notNull(),
    seq: integer('seq').notNull(),
    occurrence: text('occurrence'),
    cursor: bigint('cursor', { mode: 'number' }),
    advanced: boolean('advanced').notNull(),
    reportedAt: ts('reported_at').notNull(),
    /** The cadence the report was sent with: the report-break rule judges the quiet after it by this (null before migration 0013_report_cadence). */
    reportEveryMs: integer('report_every_ms'),
    /**
     * A row is a RUN of consecutive reports of one epoch and cadence with no break between them
     * (migrations 0025_report_runs, 0028_report_events): `seq`, `reported_at`, `occurrence`,
     * `cursor` and `advanced` are its first report's; `last_seq`/`last_at` its last's (null: a run
     * of one). `packed` holds the later reports, about half a byte each: quiet offsets from the
     * cadence (two in −1…12 ms to a byte) and, as events before a report, a cursor move (a delta;
     * the run's last move again: a byte with the quiet) or another occurrence. A break, another
     * cadence, the cap (1,800 reports, an hour, 1,600 packed bytes) or the
     * partition's end starts a new row (leaseboard_report); leaseboard_run_reports expands a run back
     * into reports (lib/server/asof/logs-sql.ts).
     */
    lastSeq: integer('last_seq'),
    lastAt: ts('last_at'),
    packed: bytea('packed'),
    /** True when a report after the first advanced (null: none did). */
    laterAdvance: boolean('later_advance'),
    /** The run's last cursor move by a delta (null: none yet): the writer's "the same move again", a byte. */
    lastMove: bigint('last_move', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.id, t.reportedAt] }), index('progress_reports_lease_epoch_at').on(t.lease, t.epoch, t.reportedAt)],
);

/** The progress_reports partitions the retention job made: `[from, to)` each (fixed size: retention ÷ width + the ones ahead). */
export const reportPartitions = pgTable('report_partitions', {
  name: text('name').primaryKey(),
  from: ts('from').notNull(),
  to: ts('to').notNull(),
});

/** Per-lease summary of the latest reporting epoch, kept current with each report. */
export const progressSummaries = pgTable('progress_summaries', {
  lease: text('lease').primaryKey(),
  epoch: epochCol('epoch').notNull(),
  firstReportAt: ts('first_report_at').notNull(),
  lastReportAt: ts('last_report_at').notNull(),
  lastSeq: integer('last_seq').notNull(),
  lastAdvanceAt: ts('last_advance_at').notNull(),
  inFlight: text('in_flight'),
  cursor: bigint('cursor', { mode: 'number' }),
  reportEveryMs: integer('report_every_ms').notNull(),
  gapFrom: ts('gap_from'),
  gapTo: ts('gap_to'),
  gapReason: text('gap_reason', { enum: ['silence', 'lost_reports'] }),
  changeXid: changeXid(),
  touchXid: touchXid(),
});

// ---------------------------------------------------------------- alerts (lib/alerts, the evaluator job lib/jobs/alert-evaluator)

const ALERT_STATE_KINDS = ['inactive', 'pending', 'firing', 'resolved'] as const;
const ALERT_MODE_NAMES = ['off', 'shadow', 'on'] as const;

/**
 * The current state of each alert: one row per rule × scheduler (service rules: scheduler NULL),
 * kept only while the alert is not inactive or Alertmanager may still hold it as firing — so
 * fixed size per rule × scheduler at most. Fenced: only the evaluator job writes it, with its
 * lease (`leaseboard-alerts`) and epoch; the database refuses a stale evaluator's writes.
 * Times are the database times of the status reads the evaluator judged.
 */
export const alertState = pgTable(
  'alert_state',
  {
    rule: text('rule').notNull(),
    scheduler: text('scheduler'),
    state: text('state', { enum: ALERT_STATE_KINDS }).notNull(),
    activeAt: ts('active_at'),
    firedAt: ts('fired_at'),
    keepFiringSince: ts('keep_firing_since'),
    resolvedAt: ts('resolved_at'),
    /** From the status's reasons at the last true evaluation. */
    summary: text('summary'),
    /** The last send handed to delivery (after this row committed): when, and as what. */
    sentAt: ts('sent_at'),
    sentAs: text('sent_as', { enum: ['firing', 'resolved'] }),
    /** The `sent_at` of the last send an Alertmanager accepted (= sent_at: delivered). */
    deliveredSentAt: ts('delivered_sent_at'),
    updatedAt: ts('updated_at').notNull(),
    lease: text('lease').notNull(),
    epoch: epochCol('epoch').notNull(),
  },
  (t) => [unique('alert_state_rule_scheduler').on(t.rule, t.scheduler).nullsNotDistinct()],
);

/**
 * Alert state transitions (facts): rule, scheduler, from → to, at (the judged status's database
 * time), the mode in force, and the evaluator's lease and epoch (fenced). History, bounded by a
 * retention: the pruner (lib/jobs/retention-pruner) deletes rows older than
 * LEASEBOARD_RETAIN_ALERT_EVENTS (30 d by default) by `at`.
 */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rule: text('rule').notNull(),
    scheduler: text('scheduler'),
    fromState: text('from_state', { enum: ALERT_STATE_KINDS }).notNull(),
    toState: text('to_state', { enum: ALERT_STATE_KINDS }).notNull(),
    at: ts('at').notNull(),
    mode: text('mode', { enum: ALERT_MODE_NAMES }).notNull(),
    lease: text('lease').notNull(),
    epoch: epochCol('epoch').notNull(),
  },
  (t) => [index('alert_events_at').on(t.at), index('alert_events_scheduler_at').on(t.scheduler, t.at)],
);

/**
 * Old alert transitions, a day to a row (migration 0032_alert_event_days, folded by the pruner): per
 * scheduler and UTC day, slot i of the arrays is one transition, at `atUs[i]` µs after the day.
 */
export const alertEventDays = pgTable(
  'alert_event_days',
  {
    scheduler: text('scheduler').notNull(),
    day: ts('day').notNull(),
    ids: bigint('ids', { mode: 'number' }).array().notNull(),
    rules: text('rules').array().notNull(),
    /** from × 16 + to × 4 + mode, each its place in ALERT_STATE_KINDS / ALERT_MODE_NAMES (SQL: leaseboard_alert_kind). */
    kinds: smallint('kinds').array().notNull(),
    atUs: bigint('at_us', { mode: 'number' }).array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduler, t.day] }), index('alert_event_days_day').on(t.day)],
);

/**
 * Alert modes: operator intent, per rule (scheduler NULL) and per rule × scheduler override.
 * Written only by an operator (`npm run alerts -- mode`, PUT /api/v1/alerts/rules/{rule}/mode),
 * never by automation; bounded by rules × (schedulers + 1).
 */
export const alertModes = pgTable(
  'alert_modes',
  {
    rule: text('rule').notNull(),
    scheduler: text('scheduler'),
    mode: text('mode', { enum: ALERT_MODE_NAMES }).notNull(),
    by: text('by').notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [unique('alert_modes_rule_scheduler').on(t.rule, t.scheduler).nullsNotDistinct()],
);

/**
 * Every mode change, append-only, never pruned (an audit trail): bounded by people, not by time —
 * it grows only when an operator changes a mode (docs/design.md "Retention").
 */
export const alertModeAudit = pgTable(
  'alert_mode_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rule: text('rule').notNull(),
    scheduler: text('scheduler'),
    /** The setting at this level before (NULL: none — it followed the rule or the default). */
    fromMode: text('from_mode', { enum: ALERT_MODE_NAMES }),
    /** The mode in force before. */
    fromEffective: text('from_effective', { enum: ALERT_MODE_NAMES }).notNull(),
    toMode: text('to_mode', { enum: ALERT_MODE_NAMES }).notNull(),
    by: text('by').notNull(),
    /** NULL: a change made before this was recorded. */
    identifiedBy: identifiedBy(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('alert_mode_audit_at').on(t.at), index('alert_mode_audit_scheduler_at').on(t.scheduler, t.at)],
);

/**
 * Delivery to each configured Alertmanager, as the evaluator's process saw it at its last round:
 * one row per target (fixed size: at most 10). Fenced like alert_state. Ages, not instants: they
 * are measured on the evaluator's own clock; `observed_at` is the database time of the write.
 */
export const alertDelivery = pgTable('alert_delivery', {
  target: text('target').primaryKey(),
  queueDepth: integer('queue_depth').notNull(),
  inFlight: integer('in_flight').notNull(),
  consecutiveFailures: integer('consecutive_failures').notNull(),
  lastError: text('last_error'),
  lastSuccessAgeMs: bigint('last_success_age_ms', { mode: 'number' }),
  lastFailureAgeMs: bigint('last_failure_age_ms', { mode: 'number' }),
  nextAttemptInMs: bigint('next_attempt_in_ms', { mode: 'number' }),
  sentAlerts: bigint('sent_alerts', { mode: 'number' }).notNull(),
  failedAttempts: bigint('failed_attempts', { mode: 'number' }).notNull(),
  rejectedAlerts: bigint('rejected_alerts', { mode: 'number' }).notNull(),
  droppedAlerts: bigint('dropped_alerts', { mode: 'number' }).notNull(),
  observedAt: ts('observed_at').notNull(),
  lease: text('lease').notNull(),
  epoch: epochCol('epoch').notNull(),
});

/**
 * Tombstones for the status service's incremental read: the names whose rows
 * (lease, summary, registration, intent or occurrence) were deleted, stamped
 * with the deleting transaction. One row per name (bounded by the names ever
 * used, like `leases`).
 */
export const statusDeletions = pgTable(
  'status_deletions',
  {
    name: text('name').primaryKey(),
    changeXid: changeXid(),
  },
  (t) => [index('status_deletions_change_xid').on(t.changeXid)],
);

/** One row: the last TRUNCATE of a table the status reads (the incremental read then reads everything again). */
export const statusResets = pgTable(
  'status_resets',
  {
    id: boolean('id').primaryKey().default(true),
    changeXid: changeXid(),
  },
  (t) => [check('status_resets_one_row', sql`${t.id}`)],
);

/**
 * One row: what is added to the timeline to make the failover generation, the
 * high part of every epoch granted (migration failover_generation, lib/status/epoch.ts).
 * 0 until a timeline restarts below the epochs already granted (pg_upgrade, a
 * logical restore); the migrator then raises it (`leaseboard_align_generation()`).
 */
export const generationBase = pgTable(
  'leaseboard_generation_base',
  {
    id: boolean('id').primaryKey().default(true),
    base: bigint('base', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('leaseboard_generation_base_one_row', sql`${t.id}`), check('leaseboard_generation_base_not_negative', sql`${t.base} >= 0`)],
);

/**
 * The demo's fault drills (freeze, pause mid-write, kill…), audited like every operator action:
 * who, how identified, which process (its demo id and instance token), what, from → to, why, when.
 * Append-only and never pruned, like the other audit trails: it grows only when an operator presses
 * a fault button (a demo-only feature).
 */
export const faultDrillAudit = pgTable(
  'fault_drill_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    lease: text('lease').notNull(),
    /** The demo's name for the process (`retention-planner-A`). */
    process: text('process').notNull(),
    /** The instance token it ran as when the drill was applied; NULL before it announced one. */
    instance: text('instance'),
    action: text('action').notNull(),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('fault_drill_audit_lease_at').on(t.lease, t.at), index('fault_drill_audit_at').on(t.at)],
);

/**
 * Open local operator sessions (lib/auth/session-store.ts): a session counts only while its row is
 * here, unrevoked and unexpired. Bounded: a row per sign-in, deleted by the first sign-in more than
 * a day after it expired (sessions last at most 7 days).
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: text('id').primaryKey(),
    who: text('who').notNull(),
    openedAt: ts('opened_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('operator_sessions_expires_at').on(t.expiresAt)],
);

/**
 * Report tokens (lib/ingest): a bearer credential per scheduler for
 * `POST /api/v1/schedulers/{name}/reports`, for programs that report over
 * HTTP. Created and revoked by operators (lib/actions/report-tokens.ts); the
 * secret is shown once and stored only as its SHA-256 (a 256-bit random
 * secret needs no slow hash). Revoking deletes the row. Bounded: at most
 * REPORT_TOKENS_PER_SCHEDULER rows per scheduler (the insert checks it).
 */
export const reportTokens = pgTable(
  'report_tokens',
  {
    /** Public part of the token (`lbr_<id>.<secret>`), 12 hex characters. */
    id: text('id').primaryKey(),
    scheduler: text('scheduler').notNull(),
    secretSha256: text('secret_sha256').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull(),
    /** The database time of its last accepted report; NULL: never used. */
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('report_tokens_scheduler').on(t.scheduler), check('report_tokens_id_shape', sql`${t.id} ~ '^[0-9a-f]{12}$'`)],
);

/**
 * Service tokens (lib/auth/service-tokens.ts): named bearer credentials an admin makes for scripts and
 * configuration as code (`lbs_<id>.<secret>`), each with scopes (read, intents, maintenance, reports)
 * for a list of schedulers or a label selector. The secret is shown once and stored only as an
 * HMAC-SHA256 keyed with the token's own random salt; `id` is public, so a presented token is found by
 * its id, never by trying every hash. Revoking stamps `revoked_at` (a revoked token answers 401 at once).
 * Bounded: at most SERVICE_TOKENS_LIVE unrevoked tokens (a create checks under an advisory lock), and a
 * revoked token's row is deleted SERVICE_TOKENS_REVOKED_KEPT_DAYS after its revocation (by the next
 * create or revoke, in the same statement); its create and revoke stay in service_token_audit.
 */
export const serviceTokens = pgTable(
  'service_tokens',
  {
    /** Public part of the token, 12 hex characters. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    /** The schedulers it may act on; NULL: those `selector` selects. */
    schedulers: text('schedulers').array(),
    /** A label selector (lib/limits/selector.ts; '' selects every scheduler); NULL: `schedulers`. */
    selector: text('selector'),
    salt: bytea('salt').notNull(),
    secretHmac: bytea('secret_hmac').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull(),
    /** The database time of its last use, stamped at most once a minute; NULL: never used. */
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('service_tokens_live_name')
      .on(t.name)
      .where(sql`${t.revokedAt} IS NULL`),
    index('service_tokens_revoked_at').on(t.revokedAt),
    check('service_tokens_id_shape', sql`${t.id} ~ '^[0-9a-f]{12}$'`),
    check('service_tokens_one_target', sql`(${t.schedulers} IS NULL) <> (${t.selector} IS NULL)`),
    check('service_tokens_scopes', sql`cardinality(${t.scopes}) > 0 AND ${t.scopes} <@ ARRAY['read', 'intents', 'maintenance', 'reports']::text[]`),
  ],
);

/**
 * Every service token created or revoked, append-only and never pruned, like the other audit trails.
 * Bounded by who writes it: only admins, one row per create or revoke, each with a reason, and at most
 * SERVICE_TOKENS_LIVE live tokens — a few hundred bytes a row at human speed.
 */
export const serviceTokenAudit = pgTable(
  'service_token_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: text('token_id').notNull(),
    name: text('name').notNull(),
    action: text('action', { enum: ['create', 'revoke'] }).notNull(),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('service_token_audit_at').on(t.at), check('service_token_audit_action', sql`${t.action} IN ('create', 'revoke')`)],
);

/**
 * Every report token created or revoked, append-only and never pruned, like the other audit trails.
 * Bounded by who writes it: only operators, one row per mint or revoke, each with a reason, and at most
 * REPORT_TOKENS_PER_SCHEDULER live tokens per scheduler — about 200 B a row, so even 100 actions a day
 * come to ~7 MB a year.
 */
export const reportTokenAudit = pgTable(
  'report_token_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scheduler: text('scheduler').notNull(),
    tokenId: text('token_id').notNull(),
    action: text('action', { enum: ['create', 'revoke'] }).notNull(),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('report_token_audit_scheduler_at').on(t.scheduler, t.at), check('report_token_audit_action', sql`${t.action} IN ('create', 'revoke')`)],
);

/**
 * The health rollup behind the overview's strips (lib/server/strips): one row each time the alert
 * evaluator (lib/jobs/alert-evaluator) saw a scheduler's health change, from the status it judged
 * (never from reports). Fenced: rows carry the evaluator's lease and epoch. A steady scheduler adds
 * no row; a scheduler flapping at every 5 s round adds at most one row per round. Pruned past the
 * reports' retention, keeping each scheduler's newest row at the cutoff (the health carried into
 * the oldest window) while the scheduler exists.
 */
export const healthChanges = pgTable(
  'health_changes',
  {
    name: text('name').notNull(),
    at: ts('at').notNull(),
    health: text('health', { enum: ['stalled', 'no_leader', 'unknown', 'disabled', 'idle', 'progressing'] }).notNull(),
    lease: text('lease').notNull(),
    epoch: epochCol('epoch').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.name, t.at] }),
    index('health_changes_at').on(t.at),
    // The ranked strips' probe: is there a change of this health inside the window (0035).
    index('health_changes_name_health_at').on(t.name, t.health, t.at),
  ],
);

/**
 * Time spent in each health per scheduler and UTC day (the reliability reports, lib/server/asof/reliability.ts),
 * folded by the retention pruner once a day has been over for an hour (leaseboard_fold_health_rollup: from its
 * 24 health_hours rows, or from health_changes and health_observed_minutes for a day before the hours): a 30-day report reads at most 31 rows a scheduler instead of
 * every change. Milliseconds; time nobody observed is in unknown_ms; a day before the scheduler's first
 * registration has no row, a day it was born in counts from then. Bounded: one row per scheduler and day,
 * and the fold deletes days older than 32 days (the longest report is 30 days): at most 33 rows a scheduler.
 * The fold checks the pruner's fence first; the rows keep no fence columns (nobody reads them once written).
 */
export const healthDays = pgTable(
  'health_days',
  {
    name: text('name').notNull(),
    day: ts('day').notNull(),
    progressingMs: bigint('progressing_ms', { mode: 'number' }).notNull(),
    idleMs: bigint('idle_ms', { mode: 'number' }).notNull(),
    stalledMs: bigint('stalled_ms', { mode: 'number' }).notNull(),
    noLeaderMs: bigint('no_leader_ms', { mode: 'number' }).notNull(),
    unknownMs: bigint('unknown_ms', { mode: 'number' }).notNull(),
    disabledMs: bigint('disabled_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.day] }), index('health_days_day').on(t.day)],
);

/**
 * Time spent in each health per scheduler and UTC hour: what today's part of a reliability report reads
 * (health_days holds the days before), folded by the retention pruner an hour at a time once the hour has
 * been over for 5 minutes; a day is then folded from its 24 hours. Same columns as health_days. Bounded:
 * one row per scheduler and hour, and the fold deletes hours older than 3 days: at most 73 rows a scheduler.
 */
export const healthHours = pgTable(
  'health_hours',
  {
    name: text('name').notNull(),
    hour: ts('hour').notNull(),
    progressingMs: bigint('progressing_ms', { mode: 'number' }).notNull(),
    idleMs: bigint('idle_ms', { mode: 'number' }).notNull(),
    stalledMs: bigint('stalled_ms', { mode: 'number' }).notNull(),
    noLeaderMs: bigint('no_leader_ms', { mode: 'number' }).notNull(),
    unknownMs: bigint('unknown_ms', { mode: 'number' }).notNull(),
    disabledMs: bigint('disabled_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.hour] }), index('health_hours_hour').on(t.hour)],
);

/**
 * Minutes in which the alert evaluator ran at least one round: outside them the rollup saw nothing,
 * and a strip draws those minutes unknown ("not observed") instead of carrying a health through.
 * One row per minute; pruned with health_changes.
 */
export const healthObservedMinutes = pgTable('health_observed_minutes', {
  minute: ts('minute').primaryKey(),
  lease: text('lease').notNull(),
  epoch: epochCol('epoch').notNull(),
});

/**
 * Maintenance windows (lib/actions/maintenance.ts; the rule is lib/limits/maintenance.ts): an operator's
 * "these schedulers are in maintenance from … to …", for a label selector or a list of names, once or
 * weekly (every 7 × 24 h after `starts_at`, UTC). While one is open, a scheduler it covers reads "in
 * maintenance" beside its health (its facts and health unchanged) and its alerts are evaluated but not
 * delivered (lib/alerts round, `suppressed`). Written only by the operator role, every change audited in
 * maintenance_audit.
 * Bounded: at most 100 open windows (a create beyond is refused), and a create deletes closed windows
 * (cancelled, or a one-off ended) older than 7 days, keeping at most the 100 newest closed ones — so at
 * most 200 rows; their history stays in maintenance_audit.
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** A label selector (lib/limits/selector.ts), or NULL when `schedulers` names them. */
    selector: text('selector'),
    /** Scheduler names, or NULL when `selector` chooses them. */
    schedulers: text('schedulers').array(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** Again every 7 days after `starts_at` (for as long: ends_at − starts_at), until cancelled. */
    weekly: boolean('weekly').notNull().default(false),
    reason: text('reason').notNull(),
    by: text('by').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    check('maintenance_windows_target', sql`(${t.selector} IS NULL) <> (${t.schedulers} IS NULL)`),
    check('maintenance_windows_names', sql`${t.schedulers} IS NULL OR cardinality(${t.schedulers}) BETWEEN 1 AND 100`),
    check(
      'maintenance_windows_span',
      sql`${t.endsAt} > ${t.startsAt} AND ${t.endsAt} - ${t.startsAt} <= interval '30 days' AND (NOT ${t.weekly} OR ${t.endsAt} - ${t.startsAt} < interval '7 days')`,
    ),
    index('maintenance_windows_open').on(t.cancelledAt, t.endsAt),
  ],
);

/**
 * Every maintenance window change (create, edit, cancel), append-only and never pruned, like the other
 * audit trails: the window before and after (as JSON), who, why, when. Bounded by people: a row per
 * operator change with a reason (human speed, under a kilobyte).
 */
export const maintenanceAudit = pgTable(
  'maintenance_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    windowId: bigint('window_id', { mode: 'number' }).notNull(),
    action: text('action', { enum: ['create', 'edit', 'cancel'] }).notNull(),
    fromWindow: jsonb('from_window'),
    toWindow: jsonb('to_window').notNull(),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('maintenance_audit_window_at').on(t.windowId, t.at), index('maintenance_audit_at').on(t.at)],
);

/**
 * Who owns a team's schedulers (lib/actions/owners.ts): the contact and runbook an operator set for the
 * schedulers labelled `team=<team>`, carried in their alerts' annotations (the team itself is the alert's
 * `team` label, from the scheduler's labels). Written only by the operator role, every change audited in
 * team_owner_audit. Bounded: one row per team an operator described (its key), at most 1,000 (a write
 * beyond is refused).
 */
export const teamOwners = pgTable(
  'team_owners',
  {
    team: text('team').primaryKey(),
    contact: text('contact').notNull(),
    runbookUrl: text('runbook_url'),
    by: text('by').notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [
    check('team_owners_team', sql`leaseboard_label_value_ok(${t.team}) AND ${t.team} <> ''`),
    check('team_owners_contact', sql`length(${t.contact}) BETWEEN 1 AND 200`),
    check('team_owners_runbook', sql`${t.runbookUrl} IS NULL OR (length(${t.runbookUrl}) <= 500 AND ${t.runbookUrl} ~ '^https?://')`),
  ],
);

/** Every team owner change, append-only and never pruned: before → after (JSON), who, why, when. Bounded by people. */
export const teamOwnerAudit = pgTable(
  'team_owner_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    team: text('team').notNull(),
    fromOwner: jsonb('from_owner'),
    toOwner: jsonb('to_owner').notNull(),
    by: text('by').notNull(),
    identifiedBy: identifiedBy().notNull(),
    reason: text('reason').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('team_owner_audit_team_at').on(t.team, t.at), index('team_owner_audit_at').on(t.at)],
);

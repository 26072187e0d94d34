/**
 * The v1 HTTP contract as zod schemas: the one source of the response types
 * (./types.ts infers them) and of the OpenAPI document's components
 * (lib/server/http/openapi.ts generates the document from the schemas named
 * in `apiComponents` and the routes that use them). The contract test validates live responses of every route against
 * the served document, so the document cannot drift from what is answered.
 *
 * Guarantees: `SchedulerStatus` here and lib/status's `SchedulerStatus` (the
 * projection's own type) are checked to be the same type at compile time;
 * the health enum is lib/status's order (HEALTH_SEVERITY).
 * Non-guarantees: the server does not parse its own answers at run time; the
 * types and the contract test hold them to these schemas.
 */
import { z } from 'zod';
import { HEALTH_SEVERITY } from '../status/health';
import { STRIP_WINDOWS } from '../status/strip';
import { RELIABILITY_WINDOWS } from '../status/reliability';
import { IDENTIFIED_BY, OPERATOR_NAME_MAX_LENGTH, REASON_MAX_LENGTH } from '../limits';
import { DRILL_ACTIONS } from './drill-actions';
import { ALERT_NAMES } from './alert-names';
import { SERVICE_TOKEN_SCOPES } from './service-token-scopes';
import { LabelsSchema } from './labels';
import { LABELS_MAX } from '../limits/labels';
import { MAINTENANCE_NAMES_MAX, spanProblem, targetProblem } from '../limits/maintenance';
import { parseSelector, SELECTOR_MAX_LENGTH } from '../limits/selector';
import type * as status from '../status/types';
import type { Durability } from '../status/durability';

/**
 * Schemas that become `#/components/schemas/{id}`. A list, not zod's global registry: a schema's id
 * there is global to the process, and the dashboard's process loads this module more than once.
 */
export const apiComponents: { id: string; schema: z.ZodType; description?: string }[] = [];

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  apiComponents.push(description === undefined ? { id, schema } : { id, schema, description });
  return schema;
}

const time = named('IsoTime', z.iso.datetime({ offset: false }), 'ISO-8601 UTC from the database clock, e.g. 2026-11-30T16:00:00.123Z');
const ms = z.number().int();

const HealthSchema = named('Health', z.enum(HEALTH_SEVERITY), 'Worst first: the order of the list and of alerts');

const ObservationGapSchema = named(
  'ObservationGap',
  z.object({ from: time, to: time, reason: z.enum(['silence', 'lost_reports', 'store_unreadable', 'no_report_yet', 'previous_epoch_only', 'failover']) }),
);

export const ObservationSchema = named(
  'Observation',
  z.object({
    ok: z.boolean().describe('False when the status service could not read the store for this answer'),
    lastObservedAt: time.nullable().describe('Database time of the last successful read of the store (null: never)'),
  }),
);

const IntentSchema = named('Intent', z.object({ disabled: z.boolean(), by: z.string(), reason: z.string(), at: time }), "The operator's explicit choice");

const MaintenanceMarkSchema = named(
  'MaintenanceMark',
  z.object({ window: ms, reason: z.string(), by: z.string(), until: time.describe('When this opening of the window closes') }),
  'The open maintenance window covering a scheduler: an annotation beside its health, never a health',
);

const OwnerSchema = named(
  'Owner',
  z.object({
    team: z.string().describe("The scheduler's `team` label: its alerts carry it as their `team` label"),
    contact: z.string().nullable().describe('What an operator gave for the team (PUT /api/v1/teams/{team}/owner); null: none'),
    runbookUrl: z.string().nullable(),
  }),
  "Who owns a scheduler: its team, and the team's contact and runbook, carried in its alerts",
);

/** Labels as answered (already valid: the database checked them when stored). */
const LabelsOutSchema = named(
  'Labels',
  z.record(z.string(), z.string()),
  `The scheduler's labels, key → value: an operator's when one set them, else what its newest registration declared (at most ${LABELS_MAX}). As of an instant: its labels now (label history is not kept)`,
);

const SchedulerStatusSchema = named(
  'SchedulerStatus',
  z.object({
    name: z.string(),
    health: HealthSchema,
    authority: z.object({
      state: z.enum(['held', 'expired', 'released', 'none', 'unknown']),
      holder: z.string().nullable(),
      label: z.string().nullable(),
      epoch: ms.nullable(),
      acquiredAt: time.nullable(),
      renewedAt: time.nullable(),
      renewalAgeMs: ms.nullable(),
      expiresAt: time.nullable(),
      expiresInMs: ms.nullable().describe('Negative once expired'),
      ttlMs: ms.nullable(),
      atRisk: z.boolean(),
    }),
    work: z.object({
      state: z.enum(['none', 'progressing', 'stalled', 'idle', 'unknown']),
      occurrence: z.string().nullable(),
      cursor: z.number().nullable(),
      lastAdvanceAt: time.nullable(),
      lastAdvanceAgeMs: ms.nullable(),
      lastReportAt: time.nullable(),
      lastReportAgeMs: ms.nullable(),
    }),
    observation: z.object({ gap: ObservationGapSchema.nullable() }),
    intent: IntentSchema.nullable(),
    reasons: z.array(
      z.object({
        code: z.enum([
          'store_unreadable',
          'intent_disabled',
          'authority_none',
          'authority_held',
          'authority_expired',
          'authority_released',
          'renewal_at_risk',
          'reports_after_expiry',
          'no_report_yet',
          'previous_epoch_only',
          'epoch_mismatch',
          'reports_silent',
          'reports_broken',
          'work_progressing',
          'work_stalled',
          'work_overdue',
          'work_idle',
          'stall_unprovable',
        ]),
        message: z.string(),
      }),
    ),
    lastRun: z
      .object({
        state: z.enum(['succeeded', 'failed', 'interrupted', 'none', 'unknown']),
        occurrence: z.string().nullable(),
        exitCode: z.number().int().nullable().describe("Only for 'failed': the command's exit code (128 + N for a signal N)"),
        endedAt: time.nullable(),
        message: z.string(),
      })
      .describe("The last run's outcome, apart from health: never 'failed' without a stored failure; 'unknown' when not observed"),
    labels: LabelsOutSchema,
  }),
);

export const DurabilitySchema = named(
  'Durability',
  z.object({
    mode: z
      .enum(['single', 'async', 'sync', 'unknown'])
      .describe(
        'What protects the authority: one node; asynchronous replication (epochs never repeat, but the newest grants and fenced writes can be lost at a failover); synchronous replication (acknowledged grants survive a failover); unknown (a standby answered, the standbys are not visible, or the store could not be read)',
      ),
    synchronousStandbys: ms.nullable().describe('Streaming standbys every commit waits for (null: unknown)'),
    asynchronousStandbys: ms.nullable().describe('Streaming standbys commits do not wait for (null: unknown)'),
    answeredBy: z
      .object({
        node: z.string().nullable().describe('Opaque id by position in the connection string (node-1 …), never a host'),
        role: z.enum(['primary', 'standby']),
      })
      .nullable()
      .describe('The node that answered the read (null: none did)'),
    generation: ms.nullable().describe("The answering primary's failover generation: the high part of the epochs it grants"),
    lag: z.object({
      state: z.enum(['ok', 'behind', 'unknown', 'none']).describe('none: no standby to lag; behind: over maxMs'),
      ms: ms.nullable().describe("Primary: the slowest standby's replay lag; standby: its own"),
      bytes: z.number().nullable().describe('Primary: the largest WAL distance to a standby'),
      maxMs: ms,
    }),
    reasons: z.array(
      z.object({
        code: z.enum([
          'store_unreadable',
          'answered_by_standby',
          'replication_hidden',
          'single_node',
          'asynchronous',
          'synchronous',
          'synchronous_without_standby',
          'commit_does_not_wait',
          'lag_ok',
          'lag_behind',
          'lag_unknown',
        ]),
        message: z.string(),
      }),
    ),
  }),
  'What protects the lease authority, as the node that answered sees it',
);

const counts = z.object(Object.fromEntries(HEALTH_SEVERITY.map((h) => [h, ms])) as Record<status.Health, typeof ms>);

export const GroupSummarySchema = named(
  'GroupSummary',
  z.object({
    value: z.string().nullable().describe('The label value, or null for the schedulers without the label (the last group)'),
    total: ms,
    counts: counts,
  }),
  'One group of a list grouped by a label: its schedulers by health (health filter and paging not applied)',
);

export const SchedulerListResponseSchema = named(
  'SchedulerListResponse',
  z.object({
    observedAt: time.describe("Database time the facts were read at (the service's own estimate when the store was unreadable)"),
    observation: ObservationSchema,
    pollIntervalMs: ms.describe('How often a client should poll, chosen by the server'),
    counts: counts.describe('Counts by health over ALL schedulers (before filter and paging)'),
    total: ms.describe('Schedulers matching the filter (before paging)'),
    matched: counts.describe('Counts by health over the schedulers the name query and selector match (health filter and paging not applied)'),
    groups: z
      .array(GroupSummarySchema)
      .nullable()
      .describe('With group=KEY: one summary per value of that label, in the order the rows come (values, then the unlabelled); else null'),
    limit: ms,
    offset: ms,
    schedulers: z.array(SchedulerStatusSchema).describe('Worst health first, then name (with group=KEY: by group first)'),
    durability: DurabilitySchema,
  }),
);

export const TenureSchema = named(
  'Tenure',
  z.object({
    epoch: ms,
    holder: z.string(),
    label: z.string().nullable(),
    from: time,
    to: time.nullable().describe('null while it lasts'),
    began: z.enum(['acquired', 'taken_over']),
    ended: z.enum(['released', 'expired']).nullable().describe('How it ended, when it has (a takeover always follows an expiry)'),
  }),
  "One epoch's tenure [from, to)",
);

export const StaleWriteRejectionSchema = named(
  'StaleWriteRejection',
  z.object({
    at: time,
    attemptedEpoch: ms,
    currentEpoch: ms.nullable(),
    resource: z.string(),
    reason: z.enum(['stale_epoch', 'expired', 'released', 'no_lease']),
  }),
);

// ---------------------------------------------------------------- alerts (lib/alerts; the evaluator job)

export const AlertNameSchema = named('AlertName', z.enum(ALERT_NAMES), 'An alert rule (alertname)');
export const AlertModeSchema = named(
  'AlertMode',
  z.enum(['off', 'shadow', 'on']),
  'Rollout mode: off (not evaluated), shadow (evaluated and shown, never delivered), on (delivered)',
);

const AlertDeliverySchema = z
  .object({
    as: z.enum(['firing', 'resolved']),
    sentAt: time.describe('When the evaluator last handed this alert to delivery (the round’s database time)'),
    delivered: z.boolean().describe('An Alertmanager accepted that send'),
  })
  .describe('The last send to Alertmanager (null: never sent — shadow, or not yet firing)');

export const SchedulerAlertSchema = named(
  'SchedulerAlert',
  z.object({
    rule: AlertNameSchema,
    state: z.enum(['pending', 'firing', 'resolved']).describe('resolved: kept (and re-sent) for a while after it stopped firing'),
    mode: AlertModeSchema.describe('The mode in force (live), or recorded with the transition (as of)'),
    since: time.describe('When it entered this state'),
    activeAt: time.nullable().describe('When its condition became true (null as of an instant: see `since`)'),
    firedAt: time.nullable().describe('When it started firing: the `?at=` of its generatorURL'),
    summary: z.string().nullable(),
    delivery: AlertDeliverySchema.nullable(),
    silenceUrl: z.string().nullable().describe("Alertmanager's silence form, prefilled with this alert's matchers (null without ALERTMANAGER_URL, or as of)"),
  }),
  "One of a scheduler's alerts that is not inactive",
);

const AlertModeSettingSchema = named(
  'AlertModeSetting',
  z.object({ mode: AlertModeSchema, by: z.string(), reason: z.string(), at: time }),
  "An operator's mode choice: who, why, when",
);

export const SchedulerAlertModeSchema = named(
  'SchedulerAlertMode',
  z.object({
    rule: AlertNameSchema,
    mode: AlertModeSchema,
    source: z.enum(['override', 'rule', 'default']).describe("This scheduler's own override, the rule's mode, or the default (shadow)"),
    setting: AlertModeSettingSchema.nullable(),
  }),
  'The mode in force for one rule on one scheduler, and where it comes from',
);

export const AlertSpanSchema = named(
  'AlertSpan',
  z.object({
    rule: AlertNameSchema,
    state: z.enum(['pending', 'firing']),
    from: time,
    to: time.nullable().describe('null: still so at the end of the span'),
    mode: AlertModeSchema,
  }),
  'A span an alert was pending or firing, from the alert_events log',
);

export const ConditionSchema = named(
  'Condition',
  z.object({
    type: z
      .enum(['LeaseHeld', 'Progressing', 'Observed', 'Enabled'])
      .describe('LeaseHeld: authority; Progressing: work; Observed: the evidence is current; Enabled: the operator has not disabled it'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Unknown: no evidence either way (never True for missing evidence)'),
    reason: z.enum([
      'Held',
      'RenewalAtRisk',
      'Expired',
      'Released',
      'NeverHeld',
      'Advancing',
      'Stalled',
      'Overdue',
      'Idle',
      'NoLeader',
      'NoReportYet',
      'PreviousEpochOnly',
      'ReportsSilent',
      'ReportsBroken',
      'StallUnprovable',
      'NotProven',
      'Reporting',
      'ResumedAfterGap',
      'NoReportsExpected',
      'ReportsLost',
      'Failover',
      'NoIntent',
      'EnabledByOperator',
      'DisabledByOperator',
      'StoreUnreadable',
    ]),
    message: z.string(),
    lastTransitionTime: time
      .nullable()
      .describe(
        'When the condition took its current status, as the facts pin it (e.g. acquiredAt, expiresAt, the gap start, the intent); null when they do not',
      ),
  }),
  "One axis of a scheduler's status in the Kubernetes condition shape (lib/status/conditions.ts)",
);

export const SchedulerDetailResponseSchema = named(
  'SchedulerDetailResponse',
  z.object({
    observedAt: time,
    observation: ObservationSchema,
    pollIntervalMs: ms,
    asOf: time.nullable().describe('Set when the status was rebuilt as of this instant from the logs'),
    status: SchedulerStatusSchema,
    conditions: z
      .array(ConditionSchema)
      .describe('The status as conditions, one per axis, in this order: LeaseHeld, Progressing, Observed, Enabled (as of `at` when given)'),
    transitions: z.array(TenureSchema).describe('Recent tenures, newest first'),
    rejections: z.array(StaleWriteRejectionSchema).max(50).describe('Recent stale-write rejections, newest first'),
    estimated: z.array(z.string()).optional().describe('As-of facts that are estimates rather than logged facts (e.g. lease.renewedAt); empty when live'),
    alerts: z.array(SchedulerAlertSchema).describe('Its alerts that are pending, firing (or, live, recently resolved) — as of `at` when given'),
    alertModes: z.array(SchedulerAlertModeSchema).describe('Live: the mode in force for each scheduler rule here (empty as of an instant)'),
    maintenance: MaintenanceMarkSchema.nullable().describe(
      'Live: the open maintenance window covering it (in maintenance: its alerts are not delivered; its health and facts are as ever); null as of an instant',
    ),
    owner: OwnerSchema.nullable().describe('Live: its team and the team owner details (null: no `team` label, or as of an instant)'),
    durability: DurabilitySchema.nullable().describe(
      'Live: what protects the authority, as the node that answered sees it (as the list); null as of an instant',
    ),
  }),
);

export const HealthSegmentSchema = z.object({
  from: time,
  to: time,
  health: HealthSchema,
  gap: ObservationGapSchema.nullable().describe('For unknown segments: why'),
});

export const HistoryBucketSchema = z.object({
  t: time.describe('Bucket start'),
  renewalAgeMaxMs: ms.nullable().describe('Longest renewal gap in this bucket (≈ peak renewal age); null: no renewal observed'),
  cursor: z.number().nullable().describe('Last cursor reported in this bucket; null: no report'),
  advances: ms,
  reports: ms,
  epoch: ms.nullable().describe("Epoch holding at the bucket's end (null: none)"),
});

export const SchedulerHistoryResponseSchema = named(
  'SchedulerHistoryResponse',
  z.object({
    name: z.string(),
    from: time,
    to: time,
    bucketMs: ms,
    registeredAt: time
      .nullable()
      .describe('When the scheduler began to exist (first registration, or its oldest lease event kept if earlier): no segment starts before it'),
    ttlMs: ms.nullable(),
    segments: z.array(HealthSegmentSchema),
    gaps: z.array(ObservationGapSchema).describe('Observation gaps in the span (report silences, lost seqs), explicit'),
    tenures: z.array(TenureSchema),
    buckets: z.array(HistoryBucketSchema).max(360),
    alerts: z.array(AlertSpanSchema).describe('Alert spans (pending, firing) overlapping the span'),
  }),
);

export const StripSegmentSchema = named(
  'StripSegment',
  z.object({
    from: time,
    to: time,
    health: HealthSchema.describe('The worst health seen in these cells'),
    notObserved: z.boolean().describe('Some minute of it nobody observed (no evaluator round): drawn unknown'),
    at: time.describe('The instant to open (`?at=`): when the worst health was first recorded here, else the start'),
  }),
);

export const StripRowSchema = named(
  'StripRow',
  z.object({
    name: z.string(),
    since: time.nullable().describe('Where drawing starts: first registration, or the window start if earlier (null: nothing in the window)'),
    registeredAt: time.nullable().describe('First registration (null: not registered, a lease only)'),
    worst: HealthSchema.nullable().describe('The worst health in the window (null: nothing drawn)'),
    segments: z.array(StripSegmentSchema),
  }),
);

export const StripsResponseSchema = named(
  'StripsResponse',
  z.object({
    window: z.enum(STRIP_WINDOWS),
    from: time.describe('Start of the first cell (cells are aligned to the wall clock, UTC)'),
    to: time.describe("The database's now: end of the last, partial cell"),
    cellMs: ms,
    total: ms.describe('Rows matching (the page is `rows`)'),
    counts: counts.nullable().describe('By worst health in the window over every row matching the name query (ranked reads only)'),
    rows: z.array(StripRowSchema),
  }),
);

const healthMs = z.object(Object.fromEntries(HEALTH_SEVERITY.map((h) => [h, ms])) as Record<status.Health, typeof ms>);
const healthFractions = z.object(
  Object.fromEntries(HEALTH_SEVERITY.map((h) => [h, z.number().min(0).max(1).nullable()])) as Record<status.Health, z.ZodNullable<z.ZodNumber>>,
);

const ReliabilitySchema = named(
  'Reliability',
  z.object({
    accountedMs: ms.describe('Milliseconds of the window the scheduler existed (the group: summed over its members): the denominator'),
    spentMs: healthMs.describe('Milliseconds in each health; unknown holds every moment nobody judged (never counted as up)'),
    fractions: healthFractions.describe('spentMs / accountedMs per health (null when nothing was accounted)'),
  }),
);

export const SchedulerReliabilitySchema = named(
  'SchedulerReliability',
  z.object({ name: z.string(), registeredAt: time.describe('First registration: nothing before it is accounted') }).extend(ReliabilitySchema.shape),
);

export const ReliabilityResponseSchema = named(
  'ReliabilityResponse',
  z.object({
    window: z.enum(RELIABILITY_WINDOWS),
    from: time.describe('Window start: 24 h before `to`, or (7d, 30d) the UTC midnight 7 or 30 days before today'),
    to: time.describe("The database's now"),
    scheduler: SchedulerReliabilitySchema,
  }),
);

export const GroupReliabilityResponseSchema = named(
  'GroupReliabilityResponse',
  z.object({
    window: z.enum(RELIABILITY_WINDOWS),
    from: time,
    to: time,
    selector: z.string().describe('The label selector, normalised (empty: every scheduler)'),
    total: ReliabilitySchema.describe("The group: its members' times summed"),
    schedulers: z.array(SchedulerReliabilitySchema).describe('Each member, by name'),
  }),
);

export const SchedulerRunsResponseSchema = named(
  'SchedulerRunsResponse',
  z.object({
    observedAt: time,
    everyMs: ms.nullable().describe('The cadence its registration declared (null: never registered)'),
    next: z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('slot'),
        at: time.describe('The slot it starts at'),
        due: z.boolean().describe('The current slot, not started yet: the holder claims it at its next pass'),
      }),
      z.object({ kind: z.literal('whenever'), message: z.string() }),
    ]),
    runs: z
      .array(
        z.object({
          key: z.string(),
          epoch: z.number().int(),
          scheduledAt: time,
          startedAt: time.describe('When a holder claimed it (a resume keeps the first claim)'),
          endedAt: time.nullable(),
          durationMs: ms.nullable().describe('endedAt − startedAt (null while running)'),
          outcome: z.enum(['running', 'completed', 'failed']),
          exitCode: z.number().int().nullable(),
        }),
      )
      .describe('Newest first'),
  }),
);

export const UpcomingResponseSchema = named(
  'UpcomingResponse',
  z.object({
    observedAt: time,
    until: time.describe('observedAt + 1 h'),
    total: z.number().int().nonnegative().describe('How many start within the hour in all; `runs` holds the soonest `limit` of them'),
    runs: z
      .array(
        z.object({
          name: z.string(),
          at: time.describe('The slot it starts at'),
          due: z.boolean().describe('The current slot, not started yet'),
          everyMs: ms,
          disabled: z.boolean().describe('Disabled by an operator: nothing starts until enabled'),
          held: z.boolean().describe('Someone holds the lease now'),
        }),
      )
      .describe('Soonest first'),
  }),
);

export const ErrorCodeSchema = z.enum([
  'invalid_parameter',
  'invalid_name',
  'unknown_scheduler',
  'at_in_future',
  'outside_retention',
  'invalid_span',
  'range_too_long',
  'store_unreadable',
  'busy',
  'rate_limited',
  'not_found',
  'invalid_body',
  'too_large',
  'body_timeout',
  'invalid_host',
  'invalid_encoding',
  'bad_action',
  'not_audited',
  'cross_site',
  'forbidden',
  'no_change',
  'conflict',
  'unknown_rule',
  'unauthorized',
  'stale_epoch',
  'invalid_seq',
  'cursor_backwards',
  'too_many_tokens',
  'name_taken',
  'nothing_matched',
  'unknown_window',
  'window_closed',
  'too_many_windows',
  'too_many_teams',
  'sign_in_failed',
  'scheduler_disabled',
  'no_holder',
  'run_pending',
  'internal',
]);

export const RetentionRefusalSchema = named(
  'RetentionRefusal',
  z.object({
    oldestKept: time.describe('The oldest instant the history still holds (database time of the read minus the retention)'),
    keptMs: ms.positive().describe('How far back history reaches: the shortest retention among the logs an as-of rebuild reads'),
    keptFor: z.string().describe('The same for people, e.g. "7 days"'),
  }),
  'Why an instant is refused with 410 outside_retention',
);

const errorBody = z.object({
  code: ErrorCodeSchema,
  message: z.string().describe('A short sentence for humans: never a stack trace or SQL'),
  retention: RetentionRefusalSchema.optional().describe('With 410 outside_retention only'),
  currentEpoch: z.number().int().nullable().optional().describe("With 409 stale_epoch only: the lease's current epoch (null: it has none)"),
});

export const ApiErrorSchema = named('Error', z.object({ error: errorBody }));

export const HealthzResponseSchema = named(
  'HealthzResponse',
  z.object({
    ok: z.boolean(),
    checkedAt: time.describe('Database time of the check (estimated from the last successful read when the store did not answer)'),
    store: z.object({
      ok: z.boolean(),
      latencyMs: ms.nullable(),
      lastObservedAt: time.nullable(),
      error: z.string().nullable().describe('Short error code or class (never SQL or a connection string)'),
    }),
    readTimeoutMs: ms,
    error: errorBody.optional().describe('Present with 503'),
  }),
  "The status service's own health (nothing about schedulers): 200 when ok, else 503",
);

export const AlertEntrySchema = named(
  'AlertEntry',
  SchedulerAlertSchema.extend({
    scheduler: z.string().nullable().describe('null for rules about the status service itself'),
    severity: z.enum(['critical', 'warning', 'none']),
    suppressedBy: MaintenanceMarkSchema.nullable().describe(
      'The open maintenance window covering its scheduler: the alert is evaluated and shown, never delivered, until the window closes',
    ),
  }),
  'An alert that is not inactive',
);

const alertCounts = z.object({
  firing: ms.describe('Firing, mode on (delivered)'),
  pending: ms.describe('Pending, mode on'),
  shadow: ms.describe('Pending or firing in shadow mode, or suppressed by a maintenance window (shown, never delivered)'),
});

export const AlertsResponseSchema = named(
  'AlertsResponse',
  z.object({
    observedAt: time,
    counts: alertCounts.describe('Over all alerts'),
    rules: z.array(
      z.object({
        rule: AlertNameSchema,
        severity: z.enum(['critical', 'warning', 'none']),
        scope: z.enum(['scheduler', 'service']),
        mode: AlertModeSchema.describe("The rule's own mode (default shadow)"),
        setting: AlertModeSettingSchema.nullable().describe('null: never set, the default'),
        counts: alertCounts,
      }),
    ),
    overrides: z.array(AlertModeSettingSchema.extend({ rule: AlertNameSchema, scheduler: z.string() })).describe('Per-scheduler modes'),
    alerts: z.array(AlertEntrySchema).describe('Firing first, then pending, then resolved; mode on before shadow; at most `limit`'),
    total: ms.describe('Alerts before the limit'),
    delivery: z.object({
      alertmanagerUrl: z.string().nullable().describe('The first ALERTMANAGER_URL (for links to its UI); null: nothing is delivered'),
      targets: z.array(
        z.object({
          id: z.string().describe('alertmanager-N: its position in ALERTMANAGER_URL'),
          queueDepth: ms,
          consecutiveFailures: ms,
          lastError: z.string().nullable(),
          lastSuccessAt: time.nullable(),
          nextAttemptInMs: ms.nullable(),
          sentAlerts: ms,
          observedAt: time.describe("The evaluator's last report of this (database time)"),
        }),
      ),
    }),
  }),
  'GET /api/v1/alerts: rules, modes, alerts and delivery',
);

// ---------------------------------------------------------------- operator actions, sessions, audit

const reason = z
  .string({ error: 'reason: required — say why' })
  .trim()
  .min(1, 'reason: required — say why')
  .max(REASON_MAX_LENGTH, `reason: at most ${REASON_MAX_LENGTH} characters`);
const enabledOrDisabled = z.enum(['enabled', 'disabled']);

export const IntentRequestSchema = named(
  'IntentRequest',
  z.strictObject({
    disabled: z.boolean({ error: 'disabled: true to disable, false to enable' }),
    reason,
    expectDisabled: z.boolean().optional().describe('The state the operator saw when confirming; the change is refused (409) if it is no longer current'),
  }),
  'POST /api/v1/schedulers/{name}/intent',
);

export const RunNowRequestSchema = named('RunNowRequest', z.strictObject({ reason }), 'POST /api/v1/schedulers/{name}/run-now');

export const RunRequestSchema = named(
  'RunRequest',
  z.object({
    requestedAt: time,
    expiresAt: time.describe('Not taken by then: expired, never run'),
    holder: z.string().describe('The instance token of the holder asked'),
    epoch: z.number().int().describe('Its epoch when asked'),
    by: z.string(),
    reason: z.string(),
    takenAt: time.nullable(),
    takenEpoch: z.number().int().nullable().describe('The epoch that took it (a takeover in between: the new holder)'),
    occurrence: z.string().nullable().describe('The occurrence started for it, `lease@requestedAt`'),
    state: z.enum(['pending', 'taken', 'expired']),
  }),
  'An operator request that the holder start an occurrence now',
);

export const RunNowResponseSchema = named('RunNowResponse', z.object({ scheduler: z.string(), request: RunRequestSchema }), 'The request committed');

export const ReportTokenRequestSchema = named(
  'ReportTokenRequest',
  z.strictObject({ reason }),
  'POST /api/v1/schedulers/{name}/report-tokens, DELETE /api/v1/schedulers/{name}/report-tokens/{id}',
);

export const ReportTokenResponseSchema = named(
  'ReportTokenResponse',
  z.object({
    id: z.string().describe('The public part of the token: how the audit trail and revocation name it'),
    scheduler: z.string(),
    token: z.string().nullable().describe('The whole bearer token, shown once at creation (null on revocation); only its SHA-256 is stored'),
    by: z.string(),
    at: time,
  }),
);

const SERVICE_TOKEN_NAME = /^[a-z0-9]([a-z0-9._-]{0,62})$/;

export const ServiceTokenCreateRequestSchema = named(
  'ServiceTokenCreateRequest',
  z
    .strictObject({
      name: z
        .string({ error: 'name: required' })
        .regex(SERVICE_TOKEN_NAME, 'name: 1–63 lower-case letters, digits, . _ - (what the audit records as who acted; no personal data)')
        .describe('What the audit records as who acted with it'),
      scopes: z
        .array(z.enum(SERVICE_TOKEN_SCOPES, { error: `scopes: each one of ${SERVICE_TOKEN_SCOPES.join(', ')}` }))
        .min(1, 'scopes: at least one')
        .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes: each at most once'),
      schedulers: z.array(z.string().min(1).max(200)).min(1, 'schedulers: at least one name').max(100, 'schedulers: at most 100 names').optional(),
      selector: z.string().max(2_048, 'selector: at most 2048 characters').optional().describe("A label selector (team=payments); '' selects every scheduler"),
      reason,
    })
    .refine((body) => (body.schedulers === undefined) !== (body.selector === undefined), 'schedulers or selector: give exactly one'),
  'POST /api/v1/tokens',
);

export const ServiceTokenRevokeRequestSchema = named('ServiceTokenRevokeRequest', z.strictObject({ reason }), 'DELETE /api/v1/tokens/{id}');

export const ServiceTokenSchema = named(
  'ServiceToken',
  z.object({
    id: z.string().describe('The public part of the token'),
    name: z.string(),
    scopes: z.array(z.enum(SERVICE_TOKEN_SCOPES)),
    schedulers: z.array(z.string()).nullable().describe('The schedulers it may act on (null: those its selector selects)'),
    selector: z.string().nullable(),
    createdBy: z.string(),
    createdAt: time,
    lastUsedAt: time.nullable().describe('Its last use (to the minute); null: never used'),
    revokedAt: time.nullable(),
  }),
);

export const ServiceTokenCreatedSchema = named(
  'ServiceTokenCreated',
  ServiceTokenSchema.extend({ token: z.string().describe('The whole bearer token (Authorization: Bearer lbs_…), shown only now; only a salted HMAC is kept') }),
);

export const ServiceTokenListSchema = named('ServiceTokenList', z.object({ tokens: z.array(ServiceTokenSchema) }));

const epochNumber = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
export const ReportRequestSchema = named(
  'ReportRequest',
  z.strictObject({
    epoch: epochNumber.describe('The epoch the reporting program was granted (LEASEBOARD_EPOCH)'),
    seq: z.number().int().min(1).max(2_147_483_647).describe('1, 2, 3 … within the epoch; a jump shows as lost reports'),
    occurrence: z.string().min(1).max(200).nullable().describe('The occurrence in flight, or null when idle'),
    cursor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().describe('Progress within the occurrence; never backwards within one'),
    reportEveryMs: z.number().int().min(250).max(3_600_000).describe('How often this program reports: silence is judged against it'),
    labels: LabelsSchema.optional().describe(
      "Declare the scheduler's labels (as a registration does: they replace the declared set; an operator's labels still win). Absent: unchanged",
    ),
  }),
  'POST /api/v1/schedulers/{name}/reports (Authorization: Bearer <report token>)',
);

export const ReportResponseSchema = named(
  'ReportResponse',
  z.object({
    stored: z.boolean().describe('false: the same seq again (a retry), nothing stored twice'),
    advanced: z.boolean().describe('The report moved the occurrence or the cursor'),
    reportedAt: time.nullable(),
  }),
);

export const IntentResponseSchema = named(
  'IntentResponse',
  z.object({
    scheduler: z.string(),
    from: enabledOrDisabled,
    to: enabledOrDisabled,
    intent: z.object({ disabled: z.boolean(), by: z.string(), reason: z.string(), at: time }),
  }),
  'What the database committed: from → to, by whom, when',
);

export const LabelsRequestSchema = named(
  'LabelsRequest',
  z.strictObject({
    labels: LabelsSchema.nullable().describe(
      "The operator's labels for this scheduler (they win over what it registers); null: its registration's labels apply again",
    ),
    reason,
    expectLabels: z
      .record(z.string(), z.string())
      .nullable()
      .optional()
      .describe('The operator labels the operator saw (null: none set); the change is refused (409) if they are no longer current'),
  }),
  'PUT /api/v1/schedulers/{name}/labels',
);

export const LabelsResponseSchema = named(
  'LabelsResponse',
  z.object({
    scheduler: z.string(),
    from: LabelsOutSchema.nullable().describe("The operator's labels before (null: none, the registration's applied)"),
    to: LabelsOutSchema.nullable().describe("The operator's labels now (null: the registration's apply)"),
    labels: LabelsOutSchema.describe('The labels the scheduler carries now'),
    by: z.string(),
    reason: z.string(),
    at: time,
  }),
  'What the database committed: from → to, by whom, when',
);

// ---------------------------------------------------------------- maintenance windows, bulk intent, team owners

const windowTime = z.iso.datetime({ offset: true, error: 'an ISO-8601 time, e.g. 2026-12-07T22:00:00Z' });
const schedulerName = z
  .string({ error: 'schedulers: scheduler names' })
  .min(1, 'schedulers: a name is empty')
  .max(200, 'schedulers: a name is longer than 200 characters')
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'schedulers: a name contains control characters');

export const MaintenanceWindowRequestSchema = named(
  'MaintenanceWindowRequest',
  z
    .strictObject({
      selector: z
        .string({ error: 'selector: a label selector, e.g. team=payments' })
        .max(SELECTOR_MAX_LENGTH)
        .optional()
        .describe('The schedulers it covers, as a label selector (team=payments,env in (prod)); or give `schedulers`'),
      schedulers: z
        .array(schedulerName)
        .max(MAINTENANCE_NAMES_MAX, `schedulers: at most ${MAINTENANCE_NAMES_MAX} names`)
        .optional()
        .describe('The schedulers it covers, by name; or give `selector`'),
      startsAt: windowTime.describe('When it opens'),
      endsAt: windowTime.describe('When it closes (after startsAt; at most 30 days later, under 7 days when weekly)'),
      weekly: z.boolean().optional().describe('Open again every 7 days (UTC) after startsAt, for as long, until cancelled (default false)'),
      reason,
    })
    .superRefine((w, ctx) => {
      const target = targetProblem(w.selector ?? null, w.schedulers ?? null);
      if (target !== null) ctx.addIssue({ code: 'custom', message: target });
      const span = spanProblem(Date.parse(w.startsAt), Date.parse(w.endsAt), w.weekly ?? false);
      if (span !== null) ctx.addIssue({ code: 'custom', message: span });
    }),
  'POST /api/v1/maintenance-windows, PUT /api/v1/maintenance-windows/{id} (an edit replaces the window whole)',
);

export const MaintenanceCancelRequestSchema = named('MaintenanceCancelRequest', z.strictObject({ reason }), 'DELETE /api/v1/maintenance-windows/{id}');

export const MaintenanceWindowSchema = named(
  'MaintenanceWindow',
  z.object({
    id: ms,
    selector: z.string().nullable(),
    schedulers: z.array(z.string()).nullable(),
    startsAt: time,
    endsAt: time,
    weekly: z.boolean(),
    reason: z.string(),
    by: z.string(),
    createdAt: time,
    updatedAt: time,
    cancelledAt: time.nullable(),
    state: z
      .enum(['scheduled', 'open', 'ended', 'cancelled'])
      .describe("At the answer's time: scheduled (not open yet; a weekly one between its openings), open, ended (a one-off past its end), cancelled"),
    openUntil: time.nullable().describe('While open: when this opening closes'),
    nextOpensAt: time.nullable().describe('When it opens next (null: open now, ended or cancelled)'),
  }),
  "An operator's maintenance window: while open, the schedulers it covers read `in maintenance` and their alerts are not delivered",
);

export const MaintenanceListResponseSchema = named(
  'MaintenanceListResponse',
  z.object({ observedAt: time, windows: z.array(MaintenanceWindowSchema).describe('Newest first; closed windows only while kept (7 days, at most 100)') }),
);

export const MaintenanceChangeResponseSchema = named(
  'MaintenanceChangeResponse',
  z.object({
    action: z.enum(['create', 'edit', 'cancel']),
    from: MaintenanceWindowSchema.nullable(),
    window: MaintenanceWindowSchema,
  }),
  'What the database committed',
);

export const BulkIntentRequestSchema = named(
  'BulkIntentRequest',
  z.strictObject({
    selector: z
      .string({ error: 'selector: a label selector, e.g. team=payments' })
      .max(SELECTOR_MAX_LENGTH)
      .superRefine((text, ctx) => {
        if (text.trim() === '') ctx.addIssue({ code: 'custom', message: 'selector: empty (it would select every scheduler); name what to change' });
        const parsed = parseSelector(text);
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
      }),
    disabled: z.boolean({ error: 'disabled: true to disable, false to enable' }),
    reason,
  }),
  'POST /api/v1/bulk/intent: disable or enable every scheduler the selector matches, one reason for all',
);

export const BulkIntentResponseSchema = named(
  'BulkIntentResponse',
  z.object({
    selector: z.string(),
    to: enabledOrDisabled,
    changed: z.array(z.string()).describe('Schedulers changed (one audit row each)'),
    unchanged: z.array(z.string()).describe('Schedulers matched that were already so'),
    by: z.string(),
    at: time,
  }),
  'What the database committed',
);

export const TeamOwnerRequestSchema = named(
  'TeamOwnerRequest',
  z.strictObject({
    contact: z
      .string({ error: 'contact: how to reach the team, e.g. #payments-oncall' })
      .trim()
      .min(1, 'contact: how to reach the team, e.g. #payments-oncall')
      .max(200, 'contact: at most 200 characters')
      .regex(/^[^\u0000-\u001f\u007f]+$/, 'contact: no control characters'),
    runbookUrl: z
      .url({ protocol: /^https?$/, error: 'runbookUrl: an http(s) URL' })
      .max(500, 'runbookUrl: at most 500 characters')
      .nullable()
      .optional()
      .describe("The team's runbook (absent or null: none)"),
    reason,
  }),
  'PUT /api/v1/teams/{team}/owner: the contact and runbook carried in the alerts of the schedulers labelled team=<team>',
);

export const TeamOwnerSchema = named(
  'TeamOwner',
  z.object({ team: z.string(), contact: z.string(), runbookUrl: z.string().nullable(), by: z.string(), reason: z.string(), at: time }),
  "A team's owner details, as an operator set them",
);

export const TeamOwnerResponseSchema = named(
  'TeamOwnerResponse',
  z.object({ from: TeamOwnerSchema.nullable().describe('Before (null: none set)'), owner: TeamOwnerSchema }),
  'What the database committed',
);

export const AlertModeRequestSchema = named(
  'AlertModeRequest',
  z.strictObject({
    mode: z.enum(['off', 'shadow', 'on'], { error: 'mode: one of off, shadow, on' }),
    reason,
    scheduler: z
      .string({ error: 'scheduler: a scheduler name, or null for the rule itself' })
      .min(1, 'scheduler: a scheduler name, or null for the rule itself')
      .max(200, 'scheduler: at most 200 characters')
      .nullable()
      .optional()
      .describe("Set this scheduler's override (absent or null: the rule's own mode)"),
    expectMode: z
      .enum(['off', 'shadow', 'on'])
      .optional()
      .describe('The mode in force the operator saw when confirming; the change is refused (409) if it is no longer current'),
  }),
  'PUT /api/v1/alerts/rules/{rule}/mode',
);

export const AlertModeResponseSchema = named(
  'AlertModeResponse',
  z.object({
    rule: AlertNameSchema,
    scheduler: z.string().nullable(),
    from: z.object({ setting: AlertModeSchema.nullable().describe('null: none at this level (inherited)'), effective: AlertModeSchema }),
    to: AlertModeSchema,
    setting: AlertModeSettingSchema,
  }),
  'What the database committed: from → to, by whom, when',
);

export const DemoActionRequestSchema = named(
  'DemoActionRequest',
  z.strictObject({ reason }),
  'POST /api/demo/processes/{id}/{action} (demo mode only): a fault drill, with a reason',
);

export const AuditEntrySchema = named(
  'AuditEntry',
  z.object({
    id: z.string(),
    at: time,
    who: z.string(),
    identifiedBy: z
      .enum(IDENTIFIED_BY)
      .nullable()
      .describe(
        'How `who` was established: sso (the SSO proxy), token (the operator token, with a name typed at sign-in), cli (a command run with database access); null: not recorded (before this was kept)',
      ),
    action: z.enum([
      'scheduler.disable',
      'scheduler.enable',
      'scheduler.labels',
      'scheduler.run_now',
      'alert.mode',
      'demo.fault',
      'report_token.create',
      'report_token.revoke',
      'maintenance.create',
      'maintenance.edit',
      'maintenance.cancel',
      'team.owner',
    ]),
    target: z.string().describe('The scheduler, rule, demo process, maintenance window or team acted on'),
    scheduler: z.string().nullable().describe('The scheduler concerned (null: a rule as a whole)'),
    rule: AlertNameSchema.nullable().describe('For alert.mode: the rule'),
    fault: z
      .object({ drill: z.enum(DRILL_ACTIONS), process: z.string(), instance: z.string().nullable() })
      .nullable()
      .describe('For demo.fault: which drill, on which demo process and instance token'),
    from: z.string(),
    to: z.string(),
    reason: z.string(),
  }),
  'One audited operator action: who (and how identified), what, from → to, why, when',
);

export const AuditResponseSchema = named('AuditResponse', z.object({ entries: z.array(AuditEntrySchema) }), 'Newest first');

export const SessionResponseSchema = named(
  'SessionResponse',
  z.object({
    role: z.enum(['viewer', 'operator', 'admin']).describe('admin may do everything operator may'),
    who: z.string().nullable(),
    via: z.enum(['anonymous', 'proxy', 'session', 'oidc', 'service_token']),
    localSignIn: z.boolean().describe('Whether signing in with the local operator token is possible here'),
    oidcSignIn: z.boolean().describe('Whether signing in with OpenID Connect (GET /api/v1/session/oidc/login) is possible here'),
    providerSignOut: z
      .string()
      .nullable()
      .optional()
      .describe("After signing out of an OpenID Connect session: the provider's end-session URL to open, so the provider's session ends too"),
  }),
  'Who the dashboard thinks you are',
);

export const SignInRequestSchema = named(
  'SignInRequest',
  z.strictObject({
    token: z.string({ error: 'token: required' }).min(1, 'token: required').max(512, 'token: too long'),
    name: z
      .string({ error: 'name: who you are, for the audit trail' })
      .trim()
      .min(1, 'name: who you are, for the audit trail')
      .max(OPERATOR_NAME_MAX_LENGTH, `name: at most ${OPERATOR_NAME_MAX_LENGTH} characters`)
      .regex(/^[^\u0000-\u001f\u007f]+$/, 'name: no control characters'),
  }),
  'Exchange the local operator token for a session cookie',
);

// Compile-time: the contract's status IS the projection's status.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const statusMatches: Same<z.infer<typeof SchedulerStatusSchema>, status.SchedulerStatus> = true;
void statusMatches;
const conditionMatches: Same<z.infer<typeof ConditionSchema>, status.Condition> = true;
void conditionMatches;
const durabilityMatches: Same<z.infer<typeof DurabilitySchema>, Durability> = true;
void durabilityMatches;

const INCIDENT_ENTRY_KINDS = ['holder', 'lapse', 'release', 'health', 'stale_write', 'operator', 'maintenance', 'alert'] as const;

export const IncidentEntrySchema = named(
  'IncidentEntry',
  z.object({
    at: time,
    kind: z
      .enum(INCIDENT_ENTRY_KINDS)
      .describe(
        'holder: a grant or takeover (a new epoch); lapse: a tenure expired (nobody held it until the next grant); release: a holder let go; health: the derived health changed; stale_write: a fenced write refused; operator: an audited action, with its reason; maintenance: a maintenance window covering the scheduler opened, ended or was cancelled (its alerts were not delivered in between); alert: an alert transition',
      ),
    text: z.string().describe('One line saying what happened'),
    link: z.string().describe("The scheduler's page at that moment (`/schedulers/NAME?at=ISO`, under the dashboard's URL)"),
  }),
  'One thing that happened, with a link to the moment',
);

export const IncidentResponseSchema = named(
  'IncidentResponse',
  z.object({
    scheduler: z.string(),
    from: time,
    to: time.describe('The end asked for, clamped to the database time of the read'),
    readAt: time,
    healthResolutionMs: ms.describe('Health is judged at bucket ends this far apart; a shorter episode can fall between two'),
    truncated: z.boolean().describe('Some list hit its cap (lease events, refusals or audit entries): the oldest of the range may be missing'),
    entries: z.array(IncidentEntrySchema).describe('Oldest first'),
  }),
  'What happened on one scheduler over a range: holders and epochs, lapses, health changes, refused stale writes, operator actions, maintenance windows, alerts',
);

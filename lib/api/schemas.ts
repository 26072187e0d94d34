/**
 * The v1 HTTP contract as zod schemas: the one source of the response types
 * (./types.ts infers them) and of the OpenAPI document's components
 * (lib/server/http/openapi.ts converts the schemas registered in `apiRegistry`
 * with zod's JSON Schema output). The contract test validates live responses of every route against
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
import { IDENTIFIED_BY, OPERATOR_NAME_MAX_LENGTH, REASON_MAX_LENGTH } from '../limits';
import { DRILL_ACTIONS } from './drill-actions';
import { ALERT_NAMES } from './alert-names';
import { LabelsSchema } from './labels';
import { LABELS_MAX } from '../limits/labels';
import type * as status from '../status/types';
import type { Durability } from '../status/durability';

/** Schemas that become `#/components/schemas/{id}`. */
export const apiRegistry = z.registry<{ id: string; description?: string }>();

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  apiRegistry.add(schema, description === undefined ? { id } : { id, description });
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

export const SchedulerListResponseSchema = named(
  'SchedulerListResponse',
  z.object({
    observedAt: time.describe("Database time the facts were read at (the service's own estimate when the store was unreadable)"),
    observation: ObservationSchema,
    pollIntervalMs: ms.describe('How often a client should poll, chosen by the server'),
    counts: counts.describe('Counts by health over ALL schedulers (before filter and paging)'),
    total: ms.describe('Schedulers matching the filter (before paging)'),
    limit: ms,
    offset: ms,
    schedulers: z.array(SchedulerStatusSchema).describe('Worst health first, then name'),
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

export const ErrorCodeSchema = z.enum([
  'invalid_parameter',
  'invalid_name',
  'unknown_scheduler',
  'at_in_future',
  'outside_retention',
  'invalid_span',
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
  'sign_in_failed',
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
  }),
  'An alert that is not inactive',
);

const alertCounts = z.object({
  firing: ms.describe('Firing, mode on (delivered)'),
  pending: ms.describe('Pending, mode on'),
  shadow: ms.describe('Pending or firing in shadow mode (shown, never delivered)'),
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
    action: z.enum(['scheduler.disable', 'scheduler.enable', 'scheduler.labels', 'alert.mode', 'demo.fault', 'report_token.create', 'report_token.revoke']),
    target: z.string().describe('The scheduler, rule or demo process acted on'),
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
    via: z.enum(['anonymous', 'proxy', 'session', 'oidc']),
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

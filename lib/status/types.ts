/**
 * Types of the status projection: its input (`SchedulerFacts`, the golden
 * `facts` shape plus a scheduler `name` and an optional holder `label`) and its
 * output (`SchedulerStatus`, the API v1 contract of docs/design.md).
 *
 * Guarantees: every time is an ISO-8601 UTC string from the database clock;
 * every age/duration is an integer number of milliseconds; every state is a
 * string-literal union (switch on it exhaustively).
 * Non-guarantees: these types do not check that facts are mutually consistent;
 * `project` does the few checks it can and throws `StatusInputError` otherwise.
 */

/** ISO-8601 UTC timestamp, as the database clock gives it. */
export type IsoTime = string;

// ---------------------------------------------------------------- input

/**
 * Could the status service read the store? If not, when did it last succeed —
 * and why not: unreadable, or answered by a standby too far behind to vouch
 * for anything (lib/status/durability.ts `answeredTooFarBehind`; default unreadable).
 */
export type StoreFacts = { ok: true } | { ok: false; lastObservedAt: IsoTime; why?: 'unreadable' | 'standby_behind' };

export interface LeaseFacts {
  name: string;
  /** Instance token of the (last) holder, e.g. `inst_7kq2m9xd`. */
  holder: string;
  /** Optional display label of the holder (never used for decisions). */
  label?: string | null;
  epoch: number;
  acquiredAt: IsoTime;
  renewedAt: IsoTime;
  expiresAt: IsoTime;
  ttlMs: number;
  released: boolean;
}

/** The operator's explicit choice (docs/design.md, invariant 9). */
export interface IntentFacts {
  disabled: boolean;
  by: string;
  reason: string;
  at: IsoTime;
}

/** Why reports were missing in a closed break of one epoch's report stream. */
export type ReportGapReason = 'silence' | 'lost_reports';

interface ReportGap {
  /** Last report before the break. */
  from: IsoTime;
  /** First report after the break. */
  to: IsoTime;
  reason: ReportGapReason;
}

/**
 * Summary of the reports of the latest epoch that reported.
 * `lastAdvanceAt` is maintained by the store: an epoch's FIRST report sets it
 * (it counts as an advance), later reports move it only when the cursor moved
 * or an occurrence started/completed. So it is never older than the epoch's
 * first report.
 */
export interface ProgressFacts {
  epoch: number;
  lastReportAt: IsoTime;
  lastSeq: number;
  lastAdvanceAt: IsoTime;
  /** Occurrence key being worked on, or null: the latest report says nothing is in flight. */
  inFlight: string | null;
  cursor: number | null;
  reportEveryMs: number;
  /** Most recent closed break in this epoch's report stream, or null. */
  gap: ReportGap | null;
}

/** Earliest due occurrence nobody has started. */
interface DueFacts {
  occurrence: string;
  dueAt: IsoTime;
}

/** One occurrence row as the last-run rule reads it. */
export interface OccurrenceFacts {
  occurrence: string;
  state: 'running' | 'completed' | 'failed';
  /** The epoch that last wrote the row (claimed, moved or ended it). */
  epoch: number;
  /** Only for `failed`: the command's exit code. */
  exitCode: number | null;
  /** When it ended (completed or failed); null while running. */
  endedAt: IsoTime | null;
}

/** The lease's newest occurrence, and its newest one that ended (the same row when the newest ended). */
interface LastRunFacts {
  newest: OccurrenceFacts | null;
  ended: OccurrenceFacts | null;
}

/**
 * Everything the status service read for one scheduler. `name` is part of the
 * facts (not an argument) because the reader always knows which scheduler it
 * read, while `lease` is null for a never-held scheduler. When `lease` is
 * present, `lease.name` must equal `name`.
 */
export interface SchedulerFacts {
  name: string;
  store: StoreFacts;
  lease: LeaseFacts | null;
  intent: IntentFacts | null;
  progress: ProgressFacts | null;
  due: DueFacts | null;
  /** Absent when the reader did not read occurrences (the as-of rebuild): the last run is then unknown. */
  lastRun?: LastRunFacts;
  /** The scheduler's labels (an operator's when set, else its registration's); absent: none known. Never judged. */
  labels?: SchedulerLabels;
}

/** A scheduler's labels, key → value (rules: lib/limits/labels.ts). */
export type SchedulerLabels = Readonly<Record<string, string>>;

/** No labels: one frozen object, shared by every unlabelled scheduler. */
export const NO_LABELS: SchedulerLabels = Object.freeze({});

// ---------------------------------------------------------------- output

/** `unknown` only when the store could not be read. */
export type AuthorityState = 'held' | 'expired' | 'released' | 'none' | 'unknown';
/** `none` whenever authority is not `held` (nobody's work to judge). */
export type WorkState = 'none' | 'progressing' | 'stalled' | 'idle' | 'unknown';
export type Health = 'disabled' | 'unknown' | 'no_leader' | 'stalled' | 'progressing' | 'idle';

/**
 * Why observation is missing over `[from, to]`:
 * - `silence`: no report of the current epoch for longer than gapAfter (open, `to` = now)
 * - `lost_reports`: a closed break in the stream detected by a seq jump
 *   (`silence` too when the store closed a silent break)
 * - `store_unreadable`: the status service could not read the store (from its last observation)
 * - `no_report_yet`: the current epoch has no report at all (from acquisition)
 * - `previous_epoch_only`: only an older epoch reported; the new leader has not (from acquisition)
 * - `failover`: a database failover; the old primary's last grants and reports may be lost with it
 *   (history only: from the last evidence of the older generation to the newer one's first grant,
 *   lib/status/durability.ts `failoverWindows`)
 */
export type GapReason = ReportGapReason | 'store_unreadable' | 'no_report_yet' | 'previous_epoch_only' | 'failover';

export interface ObservationGap {
  from: IsoTime;
  to: IsoTime;
  reason: GapReason;
}

export interface AuthorityStatus {
  state: AuthorityState;
  /** Last known values; null only when the lease was never held. */
  holder: string | null;
  label: string | null;
  epoch: number | null;
  acquiredAt: IsoTime | null;
  renewedAt: IsoTime | null;
  renewalAgeMs: number | null;
  expiresAt: IsoTime | null;
  /** Negative once expired (how long ago it expired). */
  expiresInMs: number | null;
  ttlMs: number | null;
  /** renewalAgeMs > atRiskFraction × ttlMs; only ever true while `held`. */
  atRisk: boolean;
}

/** Fields come from the current epoch's reports only; null otherwise. */
export interface WorkStatus {
  state: WorkState;
  occurrence: string | null;
  cursor: number | null;
  lastAdvanceAt: IsoTime | null;
  lastAdvanceAgeMs: number | null;
  lastReportAt: IsoTime | null;
  lastReportAgeMs: number | null;
}

export type ReasonCode =
  | 'store_unreadable'
  | 'intent_disabled'
  | 'authority_none'
  | 'authority_held'
  | 'authority_expired'
  | 'authority_released'
  | 'renewal_at_risk'
  | 'reports_after_expiry'
  | 'no_report_yet'
  | 'previous_epoch_only'
  | 'epoch_mismatch'
  | 'reports_silent'
  | 'reports_broken'
  | 'work_progressing'
  | 'work_stalled'
  | 'work_overdue'
  | 'work_idle'
  | 'stall_unprovable';

export interface Reason {
  code: ReasonCode;
  message: string;
}

/**
 * The last run's outcome, a fact apart from liveness and progress (it never changes `health`):
 * - `succeeded` / `failed`: the newest occurrence that ended, completed or failed (with the exit code);
 * - `interrupted`: the newest occurrence never ended and its epoch no longer holds the lease
 *   (its holder lost the lease, or released it, while it ran: the exec runner stopped its command);
 * - `none`: no occurrence has ended yet;
 * - `unknown`: not observed (store unreadable, or not read) — never shown as failed.
 */
type LastRunState = 'succeeded' | 'failed' | 'interrupted' | 'none' | 'unknown';

export interface LastRunStatus {
  state: LastRunState;
  occurrence: string | null;
  exitCode: number | null;
  endedAt: IsoTime | null;
  message: string;
}

export interface SchedulerStatus {
  name: string;
  health: Health;
  authority: AuthorityStatus;
  work: WorkStatus;
  observation: { gap: ObservationGap | null };
  intent: IntentFacts | null;
  reasons: Reason[];
  lastRun: LastRunStatus;
  /** Its labels, as read (none when unknown): carried through, never judged. */
  labels: SchedulerLabels;
}

// ---------------------------------------------------------------- conditions

/**
 * Kubernetes-shaped conditions of one status (./conditions.ts): authority, progress, observation
 * and the operator's intent, each its own condition, so a consumer that reads `type`/`status`
 * never has to infer one from another.
 */
export type ConditionType = 'LeaseHeld' | 'Progressing' | 'Observed' | 'Enabled';
/** `Unknown`: no evidence either way — never `True` for missing evidence. */
type ConditionStatus = 'True' | 'False' | 'Unknown';
export type ConditionReason =
  // LeaseHeld
  | 'Held'
  | 'RenewalAtRisk'
  | 'Expired'
  | 'Released'
  | 'NeverHeld'
  // Progressing
  | 'Advancing'
  | 'Stalled'
  | 'Overdue'
  | 'Idle'
  | 'NoLeader'
  | 'NoReportYet'
  | 'PreviousEpochOnly'
  | 'ReportsSilent'
  | 'ReportsBroken'
  | 'StallUnprovable'
  | 'NotProven'
  // Observed
  | 'Reporting'
  | 'ResumedAfterGap'
  | 'NoReportsExpected'
  | 'ReportsLost'
  | 'Failover'
  // Enabled
  | 'NoIntent'
  | 'EnabledByOperator'
  | 'DisabledByOperator'
  // any
  | 'StoreUnreadable';

export interface Condition {
  type: ConditionType;
  status: ConditionStatus;
  reason: ConditionReason;
  message: string;
  /** When the condition took its current status, as the facts prove it; null when they do not. */
  lastTransitionTime: IsoTime | null;
}

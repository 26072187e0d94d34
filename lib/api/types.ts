/**
 * The v1 HTTP contract (DESIGN.md "API") as types, shared by the route
 * handlers, the server-side first render and the browser. Times are ISO-8601
 * UTC strings from the database clock; ages and durations are integer ms.
 */
import type { Health, IsoTime, ObservationGap, SchedulerStatus } from '../status/types';

export interface Observation {
  /** False when the status service could not read the store for this answer. */
  ok: boolean;
  /** Database time of the last successful read of the store (null: never). */
  lastObservedAt: IsoTime | null;
}

/** GET /api/v1/schedulers */
export interface SchedulerListResponse {
  /** Database time the facts were read at (the service's own time when the store was unreadable). */
  observedAt: IsoTime;
  observation: Observation;
  /** How often a client should poll, chosen by the server. */
  pollIntervalMs: number;
  /** Counts by health over ALL schedulers (before filter and paging). */
  counts: Record<Health, number>;
  /** Number of schedulers matching the filter (before paging). */
  total: number;
  limit: number;
  offset: number;
  /** Sorted by severity (worst first), then name. */
  schedulers: SchedulerStatus[];
}

/** One epoch's tenure `[from, to)`; `to` null while it lasts. */
export interface Tenure {
  epoch: number;
  holder: string;
  label: string | null;
  from: IsoTime;
  to: IsoTime | null;
  /** How it began. */
  began: 'acquired' | 'taken_over';
  /** How it ended, when it has. */
  ended: 'released' | 'expired' | 'taken_over' | null;
}

export interface StaleWriteRejection {
  at: IsoTime;
  attemptedEpoch: number;
  currentEpoch: number | null;
  resource: string;
  reason: 'stale_epoch' | 'expired' | 'released' | 'no_lease';
}

/** GET /api/v1/schedulers/{name}[?at=ISO] */
export interface SchedulerDetailResponse {
  observedAt: IsoTime;
  observation: Observation;
  pollIntervalMs: number;
  /** Set when the status was rebuilt as of this instant from the logs. */
  asOf: IsoTime | null;
  status: SchedulerStatus;
  /** Recent tenures, newest first. */
  transitions: Tenure[];
  /** Recent stale-write rejections, newest first. */
  rejections: StaleWriteRejection[];
  /**
   * Facts that are estimates rather than logged facts (as-of only), e.g.
   * `lease.renewedAt`: renewals are kept as a per-minute rollup. Empty when live.
   */
  estimated?: string[];
}

export interface HealthSegment {
  from: IsoTime;
  to: IsoTime;
  health: Health;
  /** For unknown segments: why. */
  gap: ObservationGap | null;
}

export interface HistoryBucket {
  /** Bucket start. */
  t: IsoTime;
  /** Longest renewal gap that ended in this bucket (≈ peak renewal age); null: no renewal observed. */
  renewalAgeMaxMs: number | null;
  /** Last cursor reported in this bucket; null: no report. */
  cursor: number | null;
  /** Advances reported in this bucket. */
  advances: number;
  /** Reports received in this bucket. */
  reports: number;
  /** Epoch holding at the bucket's end (null: none). */
  epoch: number | null;
}

/** GET /api/v1/schedulers/{name}/history?from=&to= */
export interface SchedulerHistoryResponse {
  name: string;
  from: IsoTime;
  to: IsoTime;
  bucketMs: number;
  ttlMs: number | null;
  segments: HealthSegment[];
  /** Observation gaps in the span (report silences, lost seqs), explicit. */
  gaps: ObservationGap[];
  tenures: Tenure[];
  buckets: HistoryBucket[];
}

/** GET /api/healthz — the status service's own health (nothing about schedulers). 200 when ok, else 503. */
export interface HealthzResponse {
  ok: boolean;
  /** Database time of the check (estimated from the last successful read when the store did not answer). */
  checkedAt: IsoTime;
  store: {
    ok: boolean;
    /** Round trip of this check when it succeeded. */
    latencyMs: number | null;
    lastObservedAt: IsoTime | null;
    /** Short error code or class when the store could not be read (never SQL or a connection string). */
    error: string | null;
  };
  readTimeoutMs: number;
}

export interface ApiError {
  error: { code: string; message: string };
}

/** Demo supervisor (demo mode only, loopback). */
export type DemoAction = 'freeze' | 'unfreeze' | 'drop-reports' | 'resume-reports' | 'pause' | 'resume' | 'pause-mid-write' | 'kill' | 'restart' | 'stop';

export interface DemoProcess {
  /** Stable id within the demo, e.g. `retention-planner-A`. */
  id: string;
  lease: string;
  label: string;
  /** Instance token of the current incarnation (null before it printed one). */
  token: string | null;
  state: 'starting' | 'running' | 'paused' | 'exited';
  frozen: boolean;
  droppingReports: boolean;
  /** "Pause mid-write" is armed or under way: the next fenced write stops the process past its ttl, then it resumes. */
  pausingMidWrite: boolean;
}

export interface DemoProcessesResponse {
  processes: DemoProcess[];
}

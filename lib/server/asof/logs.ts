/**
 * Reads one scheduler's logs over a span (./logs-sql.ts, ONE statement) and
 * types them for the pure as-of rebuild (./facts-at.ts).
 *
 * Guarantees: every time is epoch ms from the database clock; `nowMs` is the
 * same statement's clock; lists are bounded (events by `eventLimit`, reports
 * aggregated per bucket and epoch). Non-guarantees: no deadline of its own.
 */
import { DEFAULT_REPORT_EVERY_MS, DEFAULT_THRESHOLDS } from '../../status';
import type { SchedulerLabels } from '../../status/types';
import type { Queryable, Registration } from '../live/facts';
import { LOGS_SQL } from './logs-sql';
import type { LeaseEventLog } from './tenures';
import { toIso as iso } from '../../status/time';
import { SCHEDULER_ALERT_NAMES } from '../../alerts';
import type { AlertEventLog } from '../alerts/view';

/** Report state of one epoch: its last report and last advance up to an instant. */
export interface ReportAgg {
  /** Bucket index; -1 for the state at `from` (carried in). */
  i: number;
  epoch: number;
  /** Reports and advances inside the bucket (0 for the carried-in state). */
  n: number;
  adv: number;
  last_ms: number;
  adv_ms: number | null;
  seq: number;
  occ: string | null;
  cursor: number | null;
  /** The cadence the last report was sent with (null: a report from before reports kept it). */
  every: number | null;
}

interface ReportBreak {
  epoch: number;
  from_ms: number;
  to_ms: number;
  reason: 'silence' | 'lost_reports';
}

interface LeaseRowLog {
  holder: string;
  label: string | null;
  epoch: number;
  acquired_ms: number;
  renewed_ms: number;
  expires_ms: number;
  ttl_ms: number;
  released_ms: number | null;
  gap_bucket_ms: number | null;
  gap_bucket_max_ms: number | null;
}

/** The due occurrence at one instant (see ./logs-sql.ts `slots`). */
interface SlotLog {
  i: number;
  slot_ms: number;
  key: string;
  /** True when it is the newest occurrence and was still running then (started, maybe abandoned). */
  running: boolean;
}

export interface SchedulerLogs {
  name: string;
  nowMs: number;
  known: boolean;
  fromMs: number;
  toMs: number;
  /** Instants the slots were computed for (bucket ends, or [at]). */
  ends: number[];
  bucketMs: number;
  /** The cadence for reports that did not keep their own (registration, else summary, else default). */
  reportEveryMs: number;
  registration: Registration | null;
  /** The scheduler's labels now (label history is not kept). */
  labels: SchedulerLabels;
  lease: LeaseRowLog | null;
  events: LeaseEventLog[];
  intents: { disabled: boolean; by: string; reason: string; at_ms: number }[];
  carry: ReportAgg[];
  buckets: ReportAgg[];
  breaks: ReportBreak[];
  renewals: { epoch: number; minute_ms: number; max_gap_ms: number }[];
  slots: SlotLog[];
  /** Alert transitions: each rule's last at or before `from`, then those in the span (time order). */
  alerts: AlertEventLog[];
}

export const EVENT_LIMIT = 5_000;

interface LogsRow {
  now_ms: number;
  known: boolean;
  every_ms: number;
  registration: { every_ms: number; report_every_ms: number; stall_after_ms: number; overdue_after_ms: number } | null;
  labels: SchedulerLabels;
  lease: LeaseRowLog | null;
  events: LeaseEventLog[] | null;
  intents: SchedulerLogs['intents'] | null;
  carry: ReportAgg[] | null;
  buckets: ReportAgg[] | null;
  breaks: ReportBreak[] | null;
  renewals: SchedulerLogs['renewals'] | null;
  slots: SlotLog[] | null;
  alerts: AlertEventLog[] | null;
}

export interface LogsWindow {
  fromMs: number;
  toMs: number;
  ends: number[];
  bucketMs: number;
}

export async function readLogs(db: Queryable, name: string, w: LogsWindow): Promise<SchedulerLogs> {
  const { rows } = await db.query({
    text: LOGS_SQL,
    values: [
      name,
      iso(w.fromMs),
      iso(w.toMs),
      w.ends.map(iso),
      Math.max(1, Math.round(w.bucketMs)),
      DEFAULT_THRESHOLDS.stallAfterMs,
      DEFAULT_REPORT_EVERY_MS,
      EVENT_LIMIT,
      SCHEDULER_ALERT_NAMES,
    ],
  });
  const r = rows[0] as LogsRow;
  const reg = r.registration;
  return {
    name,
    nowMs: r.now_ms,
    known: r.known,
    ...w,
    reportEveryMs: r.every_ms,
    registration: reg && { everyMs: reg.every_ms, reportEveryMs: reg.report_every_ms, stallAfterMs: reg.stall_after_ms, overdueAfterMs: reg.overdue_after_ms },
    labels: r.labels,
    lease: r.lease,
    events: r.events ?? [],
    intents: r.intents ?? [],
    carry: r.carry ?? [],
    buckets: r.buckets ?? [],
    breaks: r.breaks ?? [],
    renewals: r.renewals ?? [],
    slots: r.slots ?? [],
    alerts: r.alerts ?? [],
  };
}

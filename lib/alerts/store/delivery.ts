/**
 * Delivery status as stored (alert_delivery): one row per configured
 * Alertmanager, written by the evaluator each round (fenced), read by the
 * status service for metrics and the dashboard — so every status-service
 * instance shows the delivering instance's view, not its own.
 *
 * Guarantees: ids only (`alertmanager-N`), never URLs or hosts; ages were
 * measured on the evaluator's own clock at `observedAt` (database time of the
 * write), so `observedAt − age` places an event on the database clock.
 */
import { isoOrNull, msCol, type Queryable } from './db';

/** One Alertmanager's delivery counters, as the evaluator measures them and the table stores them. */
export interface DeliveryCounters {
  queueDepth: number;
  inFlight: number;
  consecutiveFailures: number;
  lastError: string | null;
  lastSuccessAgeMs: number | null;
  lastFailureAgeMs: number | null;
  nextAttemptInMs: number | null;
  sentAlerts: number;
  failedAttempts: number;
  rejectedAlerts: number;
  droppedAlerts: number;
}

export interface StoredDeliveryTarget extends DeliveryCounters {
  id: string;
  observedAt: string;
}

interface DeliveryRow {
  target: string;
  queue_depth: number;
  in_flight: number;
  consecutive_failures: number;
  last_error: string | null;
  last_success_age_ms: string | null;
  last_failure_age_ms: string | null;
  next_attempt_in_ms: string | null;
  sent_alerts: string;
  failed_attempts: string;
  rejected_alerts: string;
  dropped_alerts: string;
  observed_ms: number;
}

const num = (value: string | null) => (value === null ? null : Number(value));

export async function readDeliveryTargets(db: Queryable): Promise<StoredDeliveryTarget[]> {
  const { rows } = await db.query({
    text: `SELECT target, queue_depth, in_flight, consecutive_failures, last_error, last_success_age_ms, last_failure_age_ms, next_attempt_in_ms,
             sent_alerts, failed_attempts, rejected_alerts, dropped_alerts, ${msCol('observed_at', 'observed_ms')}
           FROM alert_delivery ORDER BY length(target), target`,
  });
  return (rows as DeliveryRow[]).map((r) => ({
    id: r.target,
    queueDepth: r.queue_depth,
    inFlight: r.in_flight,
    consecutiveFailures: r.consecutive_failures,
    lastError: r.last_error,
    lastSuccessAgeMs: num(r.last_success_age_ms),
    lastFailureAgeMs: num(r.last_failure_age_ms),
    nextAttemptInMs: num(r.next_attempt_in_ms),
    sentAlerts: Number(r.sent_alerts),
    failedAttempts: Number(r.failed_attempts),
    rejectedAlerts: Number(r.rejected_alerts),
    droppedAlerts: Number(r.dropped_alerts),
    observedAt: isoOrNull(r.observed_ms)!,
  }));
}

/**
 * The evaluator's side of delivery: it hands Alertmanager only what a
 * committed round decided, under the tenure that committed it, and keeps
 * the acknowledgements for the next round to store.
 *
 * What is guaranteed about duplicates and stale sends
 * - A round's sends are handed over only after its fenced write committed
 *   (the runtime's `committed` hook): a stale evaluator, whose write the
 *   database refuses, delivers nothing of that round.
 * - Sends wait and go out only while their tenure is current (the runtime's
 *   own trust check, monotonic self-suspicion included), checked right
 *   before every request: a paused evaluator that wakes up past its lease
 *   drops what it had queued (`withheldAlerts`) instead of sending it.
 * - The first committed round of a tenure re-sends every alert Alertmanager
 *   may hold (`reopen`): the predecessor may have died between its commit
 *   and its POST. These repeats carry the same labels and `startsAt`, so
 *   Alertmanager deduplicates them (one notification per alert and state).
 * Not guaranteed: exactly-once requests. A request already on the wire when
 * a tenure ends still arrives, firing alerts are re-sent every
 * `resendEvery` by design, and several Alertmanagers each get every alert —
 * Alertmanager's deduplication by label set (and a cluster's gossip) turns
 * these into one notification. A request that arrives late with an older
 * state can briefly reopen a resolved alert until the holder's next re-send
 * of the resolution (within `resendEvery`).
 */
import type { OutgoingAlert } from '../../alerts';
import { AlertDelivery, type DeliveryAuthority, type DeliveryOptions, type TargetStatus } from '../../alerts/delivery';
import type { TenureView } from '../../scheduler';
import type { DeliveryRow, RoundPlan } from './plan';

/** At most this many acknowledgements wait to be stored (the oldest are forgotten beyond: the alert then simply shows undelivered). */
const ACKS_MAX = 100_000;

export class EvaluatorDelivery {
  private readonly acks = new Map<string, string>();
  private readonly delivery: AlertDelivery | null;
  private tenureSignal: AbortSignal | null = null;
  private authority: DeliveryAuthority | null = null;

  /**
   * @param urls Alertmanager base URLs (none: nothing is delivered, and no status is kept)
   * @param nowMs wall clock, for the ages of delivery events (display only)
   */
  constructor(
    urls: readonly string[],
    options: Omit<DeliveryOptions, 'onAccepted'> = {},
    private readonly nowMs: () => number = Date.now,
  ) {
    this.delivery = urls.length === 0 ? null : new AlertDelivery(urls, { ...options, onAccepted: (alerts) => this.accepted(alerts) });
  }

  /** Stops delivery (nothing left running). */
  close(): Promise<void> {
    return this.delivery?.close() ?? Promise.resolve();
  }

  /** Called by AlertDelivery: an Alertmanager accepted these. */
  accepted(alerts: readonly OutgoingAlert[]): void {
    for (const a of alerts) {
      this.acks.delete(a.key);
      this.acks.set(a.key, a.sentAt);
    }
    while (this.acks.size > ACKS_MAX) this.acks.delete(this.acks.keys().next().value!);
  }

  /** Acknowledgements not yet stored (a copy). */
  pendingAcks(): Map<string, string> {
    return new Map(this.acks);
  }

  /** Per target, with ages measured now (for the round to store). */
  targets(): DeliveryRow[] {
    const now = this.nowMs();
    const age = (iso: string | null) => (iso === null ? null : Math.max(0, now - Date.parse(iso)));
    return (this.delivery?.status() ?? []).map((t: TargetStatus) => ({
      target: t.id,
      queueDepth: t.queueDepth,
      inFlight: t.inFlight,
      consecutiveFailures: t.consecutiveFailures,
      lastError: t.lastError,
      lastSuccessAgeMs: age(t.lastSuccessAt),
      lastFailureAgeMs: age(t.lastFailureAt),
      nextAttemptInMs: t.nextAttemptAt === null ? null : Math.max(0, Date.parse(t.nextAttemptAt) - now),
      sentAlerts: t.sentAlerts,
      failedAttempts: t.failedAttempts,
      rejectedAlerts: t.rejectedAlerts,
      droppedAlerts: t.droppedAlerts,
    }));
  }

  /** The round's write committed under `tenure`: forget the acknowledgements it stored, hand its sends over. */
  committed(plan: RoundPlan, tenure: TenureView): void {
    for (const [key, sentAt] of plan.acked) if (this.acks.get(key) === sentAt) this.acks.delete(key);
    if (this.delivery === null) return;
    let sends = plan.outgoing;
    if (tenure.signal !== this.tenureSignal) {
      // A new tenure: repeat everything Alertmanager may hold (this round's own sends win).
      this.tenureSignal = tenure.signal;
      this.authority = { current: () => tenure.current(), signal: tenure.signal };
      const latest = new Map(plan.reopen().map((s) => [s.key, s]));
      for (const s of plan.outgoing) latest.set(s.key, s);
      sends = [...latest.values()];
    }
    this.delivery.deliver(sends, this.authority);
  }
}

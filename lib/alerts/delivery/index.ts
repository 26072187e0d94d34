/**
 * Alert delivery to every configured Alertmanager (ALERTMANAGER_URL, several
 * allowed — as Prometheus does, each gets every alert; an Alertmanager
 * cluster deduplicates notifications).
 *
 * Guarantees: `deliver` never blocks (each target has its own bounded,
 * latest-state-wins outbox and sender — see ./target.ts); a dead
 * Alertmanager never delays another; `status()` gives one entry per target,
 * in configuration order, for metrics and the dashboard; `close()` leaves
 * nothing running.
 * - Authority: alerts handed over with a `DeliveryAuthority` (the evaluator's
 *   tenure) are sent only while it is current — checked right before every
 *   request, and everything waiting is dropped unsent (`withheldAlerts`) the
 *   moment its signal aborts or a different authority hands alerts over. So
 *   a process that lost its lease sends nothing more of what it queued: a
 *   paused evaluator that wakes up finds its tenure suspect (monotonic clock)
 *   and withholds. Not covered: a request already on the wire when the
 *   authority ends (Alertmanager deduplicates it by label set).
 * - `onAccepted` hears which alerts an Alertmanager accepted.
 * Non-guarantees: deciding WHAT to send (re-send, resolve, withdraw) is the
 * pure core's job (../step.ts); this only carries it.
 */
import type { OutgoingAlert } from '../types';
import { AlertmanagerTarget, type TargetOptions, type TargetStatus } from './target';

export { AlertmanagerTarget, type TargetStatus } from './target';

export type DeliveryOptions = Omit<TargetOptions, 'id' | 'url' | 'mayDeliver'>;

/** Whoever may deliver: current while it holds its authority; its signal aborts when it ends. */
export interface DeliveryAuthority {
  current(): boolean;
  readonly signal: AbortSignal;
}

export class AlertDelivery {
  private readonly targets: AlertmanagerTarget[];
  private authority: DeliveryAuthority | null = null;
  private readonly onEnded = () => this.withhold();

  constructor(urls: readonly string[], options: DeliveryOptions = {}) {
    this.targets = urls.map((url, i) => new AlertmanagerTarget({ ...options, id: `alertmanager-${i + 1}`, url, mayDeliver: () => this.mayDeliver() }));
  }

  get configured(): number {
    return this.targets.length;
  }

  /** Queues `alerts` under `authority` (null: none needed). A different authority than last time withholds what the previous one queued. */
  deliver(alerts: readonly OutgoingAlert[], authority: DeliveryAuthority | null = null): void {
    if (authority !== this.authority) {
      this.withhold();
      this.authority?.signal.removeEventListener('abort', this.onEnded);
      this.authority = authority;
      authority?.signal.addEventListener('abort', this.onEnded, { once: true });
    }
    if (alerts.length === 0 || !this.mayDeliver()) return;
    for (const target of this.targets) target.enqueue(alerts);
  }

  status(): TargetStatus[] {
    return this.targets.map((t) => t.status());
  }

  async close(): Promise<void> {
    this.authority?.signal.removeEventListener('abort', this.onEnded);
    await Promise.all(this.targets.map((t) => t.close()));
  }

  private mayDeliver(): boolean {
    return this.authority === null || (!this.authority.signal.aborted && this.authority.current());
  }

  private withhold(): void {
    for (const target of this.targets) target.clear();
  }
}

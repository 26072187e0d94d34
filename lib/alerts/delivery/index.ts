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
 * Non-guarantees: deciding WHAT to send (re-send, resolve, withdraw) is the
 * pure core's job (../step.ts); this only carries it.
 */
import type { OutgoingAlert } from '../types';
import { AlertmanagerTarget, type TargetOptions, type TargetStatus } from './target';

export { retryDelayMs, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
export { Outbox } from './outbox';
export { AlertmanagerTarget, describeFailure, type TargetOptions, type TargetStatus } from './target';

export type DeliveryOptions = Omit<TargetOptions, 'id' | 'url'>;

export class AlertDelivery {
  private readonly targets: AlertmanagerTarget[];

  constructor(urls: readonly string[], options: DeliveryOptions = {}) {
    this.targets = urls.map((url, i) => new AlertmanagerTarget({ ...options, id: `alertmanager-${i + 1}`, url }));
  }

  deliver(alerts: readonly OutgoingAlert[]): void {
    if (alerts.length === 0) return;
    for (const target of this.targets) target.enqueue(alerts);
  }

  status(): TargetStatus[] {
    return this.targets.map((t) => t.status());
  }

  async close(): Promise<void> {
    await Promise.all(this.targets.map((t) => t.close()));
  }
}

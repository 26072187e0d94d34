/**
 * The status service's own health: can it read the store, and how fast.
 * Nothing about schedulers.
 *
 * Guarantees: single-flight (concurrent probes share one query); the answer
 * comes within the read timeout, and a failed probe is `ok: false` with the
 * observer's last error, never a throw.
 */
import type { HealthzResponse } from '../api/types';
import { toIso as iso } from '../status/time';
import { dbNowMs, type Queryable } from './live/facts';
import type { StoreObserver } from './store/observer';

export class HealthProbe {
  private probing: Promise<HealthzResponse> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly observer: StoreObserver,
  ) {}

  healthz(): Promise<HealthzResponse> {
    this.probing ??= this.probe().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  private async probe(): Promise<HealthzResponse> {
    let ok = true;
    try {
      await this.observer.read(
        'health probe',
        () => dbNowMs(this.db),
        (ms) => ms,
      );
    } catch {
      ok = false;
    }
    const state = this.observer.snapshot();
    const last = this.observer.lastObservedAtMs();
    return {
      ok,
      checkedAt: iso(this.observer.estimatedNowMs()),
      store: { ok, latencyMs: ok ? state.lastLatencyMs : null, lastObservedAt: last === null ? null : iso(last), error: ok ? null : state.lastError },
      readTimeoutMs: this.observer.readTimeoutMs,
    };
  }
}

/**
 * Latencies of one sampling window, summarised as count, p50, p99 and max.
 * Bounded: at most MAX_KEPT values per window (a reservoir past that), so a
 * process renewing thousands of leases keeps a fixed amount per window.
 */
const MAX_KEPT = 20_000;

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export class LatencyWindow {
  private values: number[] = [];
  private count = 0;
  private max = 0;

  add(ms: number): void {
    this.count += 1;
    this.max = Math.max(this.max, ms);
    if (this.values.length < MAX_KEPT) this.values.push(ms);
    else {
      const slot = Math.floor(Math.random() * this.count);
      if (slot < MAX_KEPT) this.values[slot] = ms;
    }
  }

  /** The window's summary; the window starts afresh. */
  take(): LatencySummary {
    const sorted = this.values.sort((a, b) => a - b);
    const summary = { count: this.count, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: this.max };
    this.values = [];
    this.count = 0;
    this.max = 0;
    return summary;
  }
}

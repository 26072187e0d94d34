/**
 * Delivery to ONE Alertmanager (API v2, `POST {url}/api/v2/alerts`): a
 * bounded outbox drained by one sender, retried with backoff.
 *
 * Guarantees
 * - `enqueue` is synchronous and never waits for the network: evaluation is
 *   never blocked by a slow or dead Alertmanager.
 * - One request in flight at a time, at most `batchMax` alerts each, each
 *   bounded by `timeoutMs`.
 * - A failed request (network error, timeout, 5xx, 408, 429) puts its alerts
 *   back (unless a newer state of the same alert is waiting) and waits
 *   `retryDelayMs(consecutiveFailures)` before the next attempt; new alerts
 *   wait for that retry too. A 4xx answer is permanent for that batch: its
 *   alerts are dropped and counted (`rejectedAlerts`), the next batch goes on.
 * - `status()` exposes what metrics and the dashboard need, with an opaque
 *   id (`alertmanager-N`, the position in ALERTMANAGER_URL) and error kinds
 *   (`connection refused`, `timeout`, `HTTP 503`): never the URL or a host.
 * - Authority (`mayDeliver`): checked right before every request; when it
 *   says no, nothing is sent — the waiting alerts are dropped and counted
 *   (`withheldAlerts`), and no retry is scheduled. `clear()` does the same on
 *   demand (the evaluator's tenure ended).
 * - `onAccepted` is told which alerts an Alertmanager accepted (2xx), once
 *   per request.
 * - `close()` stops the retry timer, aborts the request in flight and waits
 *   for the sender: nothing is left running. Until then a pending retry
 *   keeps the process alive (an owner must close what it opened).
 * Non-guarantees: times in `status()` are this process's wall clock (for
 * display only); nothing is persisted — the evaluator re-sends from its
 * stored state.
 */
import type { OutgoingAlert } from '../types';
import { checkBackoff, DEFAULT_BACKOFF, retryDelayMs, type BackoffOptions } from './backoff';
import { Outbox } from './outbox';

export interface TargetOptions {
  /** Opaque id for status and logs, e.g. `alertmanager-1`. */
  id: string;
  /** Base URL (`http://am:9093`, or with a route prefix). */
  url: string;
  /** Alerts waiting at most (oldest dropped beyond). Default 10,000. */
  capacity?: number;
  /** Alerts per request. Default 500. */
  batchMax?: number;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  backoff?: BackoffOptions;
  fetch?: typeof fetch;
  random?: () => number;
  /** Wall clock for status times (display only). */
  now?: () => number;
  /** One line on the first failure of a run of failures and on recovery. */
  log?: (line: string) => void;
  /** Asked right before each request; false: send nothing, drop what waits. Default: always. */
  mayDeliver?: () => boolean;
  /** The alerts of a request Alertmanager accepted. */
  onAccepted?: (alerts: readonly OutgoingAlert[]) => void;
}

export interface TargetStatus {
  id: string;
  queueDepth: number;
  inFlight: number;
  consecutiveFailures: number;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  /** Alerts Alertmanager accepted. */
  sentAlerts: number;
  /** Requests that failed (retried or rejected). */
  failedAttempts: number;
  /** Alerts dropped because Alertmanager refused their batch (4xx). */
  rejectedAlerts: number;
  /** Alerts dropped because the outbox was full. */
  droppedAlerts: number;
  /** Alerts dropped unsent because this process no longer had the authority to deliver them. */
  withheldAlerts: number;
}

type Outcome = { kind: 'ok' } | { kind: 'retry'; error: string } | { kind: 'rejected'; error: string };

/** An error kind without addresses: `connection refused`, `timeout`, `network error (EAI_AGAIN)`. */
function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'timeout';
  return code ? `network error (${code})` : 'network error';
}

export class AlertmanagerTarget {
  readonly id: string;
  private readonly endpoint: string;
  private readonly outbox: Outbox;
  private readonly batchMax: number;
  private readonly timeoutMs: number;
  private readonly backoff: BackoffOptions;
  private readonly fetchFn: typeof fetch;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly mayDeliver: () => boolean;
  private readonly onAccepted: (alerts: readonly OutgoingAlert[]) => void;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private s: Omit<TargetStatus, 'id' | 'queueDepth' | 'droppedAlerts'> = {
    inFlight: 0,
    consecutiveFailures: 0,
    lastAttemptAt: null,
    lastSuccessAt: null,
    lastFailureAt: null,
    lastError: null,
    nextAttemptAt: null,
    sentAlerts: 0,
    failedAttempts: 0,
    rejectedAlerts: 0,
    withheldAlerts: 0,
  };

  constructor(options: TargetOptions) {
    this.id = options.id;
    this.endpoint = `${options.url.replace(/\/+$/, '')}/api/v2/alerts`;
    this.outbox = new Outbox(options.capacity ?? 10_000);
    this.batchMax = options.batchMax ?? 500;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    if (!(Number.isInteger(this.batchMax) && this.batchMax > 0)) throw new RangeError(`delivery: batchMax must be a positive integer, got ${this.batchMax}`);
    if (!(this.timeoutMs > 0)) throw new RangeError(`delivery: timeoutMs must be > 0, got ${this.timeoutMs}`);
    this.backoff = checkBackoff(options.backoff ?? DEFAULT_BACKOFF);
    this.fetchFn = options.fetch ?? fetch;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.mayDeliver = options.mayDeliver ?? (() => true);
    this.onAccepted = options.onAccepted ?? (() => {});
  }

  enqueue(items: readonly OutgoingAlert[]): void {
    if (this.closed) return;
    for (const item of items) this.outbox.put(item);
    this.kick();
  }

  status(): TargetStatus {
    return { id: this.id, queueDepth: this.outbox.size, droppedAlerts: this.outbox.dropped, ...this.s };
  }

  /** Drops every waiting alert unsent (counted as withheld) and cancels a pending retry; a request in flight completes. */
  clear(): void {
    this.s.withheldAlerts += this.outbox.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.s.nextAttemptAt = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.running;
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  private kick(): void {
    if (this.closed || this.running || this.timer || this.outbox.size === 0) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      this.kick(); // alerts enqueued while the last request settled
    });
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.outbox.size > 0) {
      if (!this.mayDeliver()) {
        this.clear();
        return;
      }
      const batch = this.outbox.take(this.batchMax);
      this.s.inFlight = batch.length;
      this.s.lastAttemptAt = this.iso(this.now());
      const outcome = await this.post(batch);
      this.s.inFlight = 0;
      if (this.closed) return;
      switch (outcome.kind) {
        case 'ok':
          if (this.s.consecutiveFailures > 0) this.log(`delivery: ${this.id} recovered after ${this.s.consecutiveFailures} failed attempts`);
          this.s.consecutiveFailures = 0;
          this.s.sentAlerts += batch.length;
          this.s.lastSuccessAt = this.s.lastAttemptAt;
          this.s.nextAttemptAt = null;
          try {
            this.onAccepted(batch);
          } catch (error) {
            this.log(`delivery: ${this.id} onAccepted failed: ${error instanceof Error ? error.message : String(error)}`);
          }
          break;
        case 'rejected':
          this.fail(outcome.error);
          this.s.rejectedAlerts += batch.length;
          this.log(`delivery: ${this.id} refused ${batch.length} alerts (${outcome.error}); dropped`);
          break;
        case 'retry': {
          this.outbox.restore(batch);
          this.fail(outcome.error);
          this.s.consecutiveFailures += 1;
          if (this.s.consecutiveFailures === 1) this.log(`delivery: ${this.id} failing (${outcome.error}); retrying with backoff`);
          const delay = retryDelayMs(this.s.consecutiveFailures, this.backoff, this.random);
          this.s.nextAttemptAt = this.iso(this.now() + delay);
          this.timer = setTimeout(() => {
            this.timer = null;
            this.kick();
          }, delay); // not unref'd: pending deliveries keep the process until close()
          return;
        }
        default: {
          const never: never = outcome;
          return never;
        }
      }
    }
  }

  private fail(error: string): void {
    this.s.failedAttempts += 1;
    this.s.lastError = error;
    this.s.lastFailureAt = this.s.lastAttemptAt;
  }

  private async post(batch: readonly OutgoingAlert[]): Promise<Outcome> {
    // Our own deadline (not AbortSignal.timeout, whose timer outlives the request).
    const request = new AbortController();
    const onClose = () => request.abort(this.abort.signal.reason);
    this.abort.signal.addEventListener('abort', onClose, { once: true });
    const deadline = setTimeout(() => request.abort(new DOMException('delivery deadline', 'TimeoutError')), this.timeoutMs);
    try {
      const response = await this.fetchFn(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(batch.map((b) => b.alert)),
        signal: request.signal,
      });
      await response.arrayBuffer().catch(() => undefined); // free the connection
      if (response.ok) return { kind: 'ok' };
      const error = `HTTP ${response.status}`;
      const permanent = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
      return permanent ? { kind: 'rejected', error } : { kind: 'retry', error };
    } catch (error) {
      return { kind: 'retry', error: describeFailure(request.signal.aborted ? request.signal.reason : error) };
    } finally {
      clearTimeout(deadline);
      this.abort.signal.removeEventListener('abort', onClose);
    }
  }
}

/**
 * What the dashboard said during a failover window: the status service's own
 * list read (lib/server/service.ts, a fresh read each time, through a read-only
 * pool on every node of the cluster), sampled every `everyMs` and folded into
 * spans — `store unreadable 1.2 s → no_leader (single) 0.4 s → progressing (single)`, each
 * health with the durability the same answer gave (sync N, async, single, unknown).
 */
import type pg from 'pg';
import { StatusService } from '../../lib/server/service';
import { answeredTooFarBehind } from '../../lib/status';

interface Span {
  said: string;
  fromMs: number;
  toMs: number;
}

export class DashboardWatch {
  private readonly service: StatusService;
  private spans: Span[] = [];
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    db: pg.Pool,
    private readonly lease: string,
    private readonly everyMs = 200,
  ) {
    this.service = new StatusService({ db, readTimeoutMs: 1_000, pollIntervalMs: 1_000, listMaxAgeMs: 0, log: () => {} });
  }

  /** What the list says of the lease now: `store unreadable` (or which standby answered too far behind), or its health and what protects the authority. */
  async says(): Promise<string> {
    const list = await this.service.list({ q: this.lease }, { fresh: true });
    const d = list.durability;
    if (!list.observation.ok) return answeredTooFarBehind(d) ? `${d.answeredBy?.node ?? 'a standby'} behind` : 'store unreadable';
    const status = list.schedulers.find((s) => s.name === this.lease);
    const protectedBy = d.mode === 'sync' ? `sync ${d.synchronousStandbys ?? '?'}` : d.mode;
    return status ? `${status.health} (${protectedBy})` : 'absent';
  }

  start(): void {
    this.spans = [];
    const started = performance.now();
    const sample = async () => {
      const said = await this.says().catch(() => 'error');
      const at = performance.now() - started;
      const last = this.spans.at(-1);
      if (last?.said === said) last.toMs = at;
      else this.spans.push({ said, fromMs: at, toMs: at });
    };
    this.timer = setInterval(() => {
      this.reading = this.reading.then(sample);
    }, this.everyMs);
  }

  /** Stops sampling; the spans in order, e.g. `unknown 0.4 s → store unreadable 1.2 s → progressing`. */
  async stop(): Promise<string> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reading;
    return this.spans
      .map((span, i) => (i === this.spans.length - 1 ? span.said : `${span.said} ${((span.toMs - span.fromMs + this.everyMs) / 1000).toFixed(1)} s`))
      .join(' → ');
  }
}

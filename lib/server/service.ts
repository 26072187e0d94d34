/**
 * The status service: reads facts through one observer (deadline + last
 * observation), projects them with lib/status, and answers the v1 reads —
 * the composition of small parts, each with one job and its guarantees:
 * - ./live-reads.ts: the live read (single-flight, incremental, shared for
 *   `listMaxAgeMs`, unknown — never stale green — when the store or a standby
 *   cannot vouch for it, the durability fact with every read);
 * - ./live-answers.ts: list pages and the metrics text built once per live read;
 * - ./heavy-reads.ts: detail, history, strips, audit and alerts on their own
 *   connections and observer, capped, refused at once (`busy`) past the cap;
 * - ./ranked-strips.ts: ranked strips shared by identical queries for
 *   `rankedStripsMaxAgeMs` (5 s); strips of named schedulers are read each time;
 * - ./health-probe.ts: the service's own health.
 *
 * Guarantees: every answer comes back within the read timeout (plus
 * projection time); it answers in domain results (./domain/result.ts) and
 * bodies: it parses nothing and serialises nothing — ./http does both, and
 * maps results to statuses.
 * Non-guarantees: the pools are the caller's (see ./instance.ts for the process ones).
 */
import type {
  AlertsResponse,
  AuditResponse,
  HealthzResponse,
  IncidentResponse,
  GroupReliabilityResponse,
  MaintenanceListResponse,
  ReliabilityResponse,
  SchedulerDetailResponse,
  SchedulerHistoryResponse,
  SchedulerListResponse,
  SchedulerRunsResponse,
  StripsResponse,
  UpcomingResponse,
} from '../api/types';
import { readDeliveryTargets } from '../alerts/store/delivery';
import { toIso as iso } from '../status/time';
import { readLiveWindows, readWindowList } from '../alerts/store/maintenance';
import { readAlerts } from './alerts/read';
import { readAudit } from './audit/read';
import { traced } from '../telemetry/span';
import { DEFAULT_MAX_STANDBY_LAG_MS } from '../status';
import { readDetail } from './asof/detail';
import type { Queryable } from './live/facts';
import { readHistory } from './asof/history';
import { readIncident } from './incident';
import { buildIncident } from './incident-entries';
import { readStrips, type StripsQuery } from './asof/strips';
import { readRuns } from './asof/runs';
import { readUpcoming } from './asof/upcoming';
import { type GroupReliabilityQuery, readGroupReliability, readReliability } from './asof/reliability';
import type { ReliabilityWindow } from '../status/reliability';
import { buildList, type ListParams, type LiveRead } from './live/list';
import type { LiveIndex } from './live/live-index';
import { renderMetrics } from './metrics/metrics';
import { StoreObserver } from './store/observer';
import { okResult, type ReadResult } from './domain/result';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../retention';
import { LiveReads } from './live-reads';
import { LiveAnswers, type MetricsText } from './live-answers';
import { HeavyReads } from './heavy-reads';
import { RankedStrips } from './ranked-strips';
import { HealthProbe } from './health-probe';

export interface StatusServiceOptions {
  /** A pool (or any `query`-able) whose statement_timeout ≈ readTimeoutMs: list, metrics, healthz. */
  db: Queryable;
  /** Connections for detail, history and audit reads (default: `db`). */
  heavyDb?: Queryable;
  /** Heavy reads running at once (default 4) and waiting at most (default 32). */
  heavyConcurrency?: number;
  heavyQueueMax?: number;
  readTimeoutMs: number;
  pollIntervalMs: number;
  /** How long a successful list read is reused (ms). Default 0 (every call reads). */
  listMaxAgeMs?: number;
  monotonicMs?: () => number;
  wallMs?: () => number;
  /** See ObserverOptions.log. */
  log?: (line: string, cause?: unknown) => void;
  /** The first ALERTMANAGER_URL (links to silence forms and its UI); default none. */
  alertmanagerUrl?: string | null;
  /** How long a ranked strips answer (by worst in window) is shared (ms, monotonic; default 5,000: the rollup changes once per evaluator round). */
  rankedStripsMaxAgeMs?: number;
  /** Retention (lib/retention): `?at=` and history older than it answer 410. Default: the policy's defaults. */
  retention?: RetentionPolicy;
  /** A standby further behind than this reads `behind` (lib/status/durability.ts). Default DEFAULT_MAX_STANDBY_LAG_MS. */
  maxStandbyLagMs?: number;
}

export type { MetricsText } from './live-answers';

export class StatusService {
  readonly observer: StoreObserver;
  readonly pollIntervalMs: number;
  private readonly db: Queryable;
  private readonly reads: LiveReads;
  private readonly answers = new LiveAnswers();
  private readonly heavy: HeavyReads;
  private readonly rankedStrips: RankedStrips;
  private readonly probe: HealthProbe;

  constructor(options: StatusServiceOptions) {
    this.db = options.db;
    this.pollIntervalMs = options.pollIntervalMs;
    const mono = options.monotonicMs ?? (() => performance.now());
    this.observer = new StoreObserver(options);
    const maxStandbyLagMs = options.maxStandbyLagMs ?? DEFAULT_MAX_STANDBY_LAG_MS;
    if (!(maxStandbyLagMs > 0)) throw new RangeError(`maxStandbyLagMs must be > 0, got ${maxStandbyLagMs}`);
    this.reads = new LiveReads(options.db, this.observer, { listMaxAgeMs: Math.max(0, options.listMaxAgeMs ?? 0), monotonicMs: mono, maxStandbyLagMs });
    this.heavy = new HeavyReads(
      {
        db: options.heavyDb ?? options.db,
        // Heavy reads' own observer: their saturation never reads as "store unreadable" for the list.
        observer: options.heavyDb ? new StoreObserver(options) : this.observer,
        pollIntervalMs: this.pollIntervalMs,
        alertmanagerUrl: options.alertmanagerUrl ?? null,
        retention: options.retention ?? DEFAULT_RETENTION,
        maxStandbyLagMs,
      },
      { concurrency: options.heavyConcurrency ?? 4, queueMax: options.heavyQueueMax ?? 32 },
    );
    this.rankedStrips = new RankedStrips(Math.max(0, options.rankedStripsMaxAgeMs ?? 5_000), mono);
    this.probe = new HealthProbe(options.db, this.observer);
  }

  /** Every scheduler as of the last successful live read. */
  get index(): LiveIndex {
    return this.reads.index;
  }

  /** All schedulers, read and projected (or degraded to unknown), in list order (./live-reads.ts). */
  live(options: { fresh?: boolean } = {}): Promise<LiveRead> {
    return this.reads.live(options);
  }

  /**
   * `fresh` bypasses the shared snapshot (never the single-flight). The pollers of one
   * live read share one page object (./live-answers.ts): treat the answer as read-only.
   */
  async list(params: ListParams = {}, options: { fresh?: boolean } = {}): Promise<SchedulerListResponse> {
    const live = await this.live(options);
    return this.answers.page(live, params, () =>
      buildList(
        {
          observedAt: live.now,
          observation: { ok: live.ok, lastObservedAt: live.lastObservedAt },
          pollIntervalMs: this.pollIntervalMs,
          view: live.view,
          durability: live.durability,
        },
        params,
      ),
    );
  }

  /** One scheduler now, or as of `atMs` (epoch ms) rebuilt from the logs. */
  detail(name: string, atMs: number | null = null): Promise<ReadResult<SchedulerDetailResponse>> {
    return this.heavy.run(() => traced('status read detail', { 'leaseboard.scheduler': name }, () => readDetail(this.heavy.deps, name, atMs)));
  }

  /** One scheduler's history over [fromMs, toMs] (null: the defaults, ./asof/history.ts). */
  history(name: string, fromMs: number | null = null, toMs: number | null = null): Promise<ReadResult<SchedulerHistoryResponse>> {
    return this.heavy.run(() => traced('status read history', { 'leaseboard.scheduler': name }, () => readHistory(this.heavy.deps, name, fromMs, toMs)));
  }

  /** What happened on one scheduler over [fromMs, toMs], linked under `linkBase` (./incident.ts, ./incident-entries.ts). */
  async incident(name: string, fromMs: number, toMs: number, linkBase: string): Promise<ReadResult<IncidentResponse>> {
    const read = await this.heavy.run(() =>
      traced('status read incident', { 'leaseboard.scheduler': name }, () => readIncident(this.heavy.deps, name, fromMs, toMs)),
    );
    return read.ok ? okResult(buildIncident(read.value, linkBase)) : read;
  }

  /** What starts in the next hour, the soonest `limit` of the schedulers `picks` keeps (null: all) (./asof/upcoming.ts). */
  upcoming(picks: GroupReliabilityQuery['picks'], limit: number): Promise<ReadResult<UpcomingResponse>> {
    return this.heavy.run(() => traced('status read upcoming', {}, () => readUpcoming(this.heavy.deps, picks, limit)));
  }

  /** One scheduler's next occurrence and newest runs (./asof/runs.ts). */
  runs(name: string, limit: number): Promise<ReadResult<SchedulerRunsResponse>> {
    return this.heavy.run(() => traced('status read runs', { 'leaseboard.scheduler': name }, () => readRuns(this.heavy.deps, name, limit)));
  }

  /** One scheduler's time per health over a window (./asof/reliability.ts). */
  reliability(name: string, window: ReliabilityWindow): Promise<ReadResult<ReliabilityResponse>> {
    return this.heavy.run(() => traced('status read reliability', { 'leaseboard.scheduler': name }, () => readReliability(this.heavy.deps, name, window)));
  }

  /** The time per health of every scheduler a selector picks, and of the group (./asof/reliability.ts). */
  groupReliability(query: GroupReliabilityQuery): Promise<ReadResult<GroupReliabilityResponse>> {
    return this.heavy.run(() => traced('status read group reliability', {}, () => readGroupReliability(this.heavy.deps, query)));
  }

  /** Health strips over a window from the rollup (./asof/strips.ts): of named schedulers, or ranked by worst in window (shared, ./ranked-strips.ts). */
  strips(query: StripsQuery): Promise<ReadResult<StripsResponse>> {
    const read = () => this.heavy.run(() => readStrips(this.heavy.deps, query));
    return query.names !== null ? read() : this.rankedStrips.answer(query, read);
  }

  /** The operator audit trail (newest first), through the observer like every read. */
  audit(filter: { scheduler: string | null; limit: number }): Promise<ReadResult<AuditResponse>> {
    return this.heavy.observed(
      'audit read',
      ({ db }) => readAudit(db, filter),
      (r) => r.nowMs,
      (r) => ({ entries: r.entries }),
    );
  }

  /** Every maintenance window kept (at most 200), newest first, through the observer like every read. */
  maintenanceWindows(): Promise<ReadResult<MaintenanceListResponse>> {
    return this.heavy.observed(
      'maintenance read',
      ({ db }) => readWindowList(db),
      (r) => r.nowMs,
      (r) => ({ observedAt: iso(r.nowMs), windows: r.windows }),
    );
  }

  /** Rules, modes, alerts (at most `limit`) and delivery (../alerts/read.ts), as a heavy read. */
  alerts(limit: number): Promise<ReadResult<AlertsResponse>> {
    return this.heavy.observed(
      'alerts read',
      ({ db, alertmanagerUrl }) => readAlerts(db, { limit, alertmanagerUrl }),
      (r) => r.nowMs,
      (r) => r.body,
    );
  }

  /** The service's own health: can it read the store, and how fast (./health-probe.ts). */
  healthz(): Promise<HealthzResponse> {
    return this.probe.healthz();
  }

  /**
   * Prometheus text exposition of the live read, with the delivery status the
   * evaluator stored (omitted, not stale, when that small read fails); rendered
   * once per read: scrapes within one read share it (the service's own
   * read-latency gauge is the one at its first scrape).
   */
  async metrics(): Promise<MetricsText> {
    const live = await this.live();
    return this.answers.metrics(live, async () => {
      const delivery = live.ok ? await readDeliveryTargets(this.db).catch(() => []) : [];
      const windows = live.ok ? await readLiveWindows(this.db).catch(() => []) : [];
      return renderMetrics(live, this.observer.snapshot(), delivery, windows);
    });
  }
}

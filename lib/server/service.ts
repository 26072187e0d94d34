/**
 * The status service: reads facts through one observer (deadline + last
 * observation), projects them with lib/status, and answers the v1 reads.
 *
 * Guarantees
 * - Live reads are single-flight: concurrent list/metrics calls share ONE
 *   in-flight query, so a slow or dead store never piles up connections.
 * - Live reads are incremental (./live/live-index.ts): the first reads every
 *   scheduler; each later one reads only the schedulers whose rows changed
 *   since the previous read's snapshot (change stamps and tombstones, see
 *   ./live/facts-sql.ts) and re-projects those plus the ones whose next
 *   threshold instant has come. The result equals a full read at the same
 *   instant (tested: lib/server/live/incremental.int.test.ts).
 * - A successful read is shared for `listMaxAgeMs` (monotonic clock): list
 *   and metrics calls within that window page through the same view.
 *   Every answer carries the database time it was read at (`observedAt`); 0 disables.
 *   A snapshot past half that age is refreshed in the background while it
 *   is still served, so steady pollers never wait for a read.
 *   Failed reads are never shared: the next call tries the store again.
 * - Every answer comes back within the read timeout (plus projection time).
 *   When the store cannot be read, the list answers `observation.ok=false`,
 *   `lastObservedAt` = the database time of the last successful read, and
 *   every scheduler it last knew projected with `store: { ok: false }` — all
 *   unknown, never stale green (docs/design.md, "Three places observation can break").
 * - Every live read carries the durability fact (what protects the
 *   authority, ./live/durability.ts), read right after the facts under the
 *   same deadline; a failed replication read is `unknown`, never a mode.
 *   An incremental read answered by another node or failover generation
 *   than the snapshot it continues is discarded for a full read (xids are
 *   reused after a failover: a lost transaction's id can belong to a new one).
 *   A read answered by a standby too far behind (or whose lag cannot be
 *   measured) is not used: the answer is `observation.ok=false` with every
 *   scheduler unknown from the last good read, as for an unreadable store,
 *   and its durability says which standby and how far behind.
 * - Nothing here reads the wall clock except the observer before the very
 *   first successful read.
 * - A ranked strips read (by worst in window, over every scheduler) is shared
 *   by identical queries for `rankedStripsMaxAgeMs` (5 s); strips of named
 *   schedulers are read each time.
 * - Heavy reads (detail, history, audit, strips) never delay the list, metrics or
 *   healthz: they run on their own connections (`heavyDb`), under their own
 *   observer (a saturated heavy pool never marks the store unreadable), at
 *   most `heavyConcurrency` at a time with at most `heavyQueueMax` waiting;
 *   beyond that they are refused at once (`busy`, retry after 1 s).
 * - It answers in domain results (./domain/result.ts) and bodies: it
 *   parses nothing and serialises nothing — ./http does both, and maps results
 *   to statuses.
 * Non-guarantees: the pools are the caller's (see ./instance.ts for the process ones).
 */
import type { AlertsResponse, AuditResponse } from '../api/types';
import { readDeliveryTargets } from '../alerts/store/delivery';
import { readAlerts } from './alerts/read';
import { readAudit } from './audit/read';
import { traced, tracedSync } from '../telemetry/span';
import type { HealthzResponse, SchedulerDetailResponse, SchedulerHistoryResponse, SchedulerListResponse, StripsResponse } from '../api/types';
import { answeredTooFarBehind, DEFAULT_MAX_STANDBY_LAG_MS, type Durability, judgeDurability, project, type ReplicationFacts } from '../status';
import { readReplicationFacts } from './live/durability';
import { readDetail, type ReadDeps } from './asof/detail';
import { dbNowMs, readAllFacts, readChangedFacts, type Queryable, type SchedulerRead } from './live/facts';
import { readHistory } from './asof/history';
import { readStrips, type StripsQuery } from './asof/strips';
import { buildList, liveRead, normalizeListParams, type ListParams, type LiveRead } from './live/list';
import { formatSelector } from '../limits/selector';
import { LiveIndex } from './live/live-index';
import { sortStatuses, statusesView } from './live/view';
import { renderMetrics } from './metrics/metrics';
import pLimit, { type LimitFunction } from 'p-limit';
import { StoreObserver } from './store/observer';
import { unreadableResult } from './store/deadline';
import { failed, HEAVY_BUSY, okResult, type ReadResult } from './domain/result';
import { toIso as iso } from '../status/time';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../retention';

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

/** List pages kept per live read (distinct filters and offsets); more start the memo afresh. */
const PAGES_PER_READ = 64;

/** Prometheus text, rendered once per live read. */
export interface MetricsText {
  contentType: string;
  body: string;
}

interface ReadMemo {
  pages: Map<string, SchedulerListResponse>;
  metrics: Promise<MetricsText> | null;
}

/** The node and failover generation a read was answered on (null: unknown — a failed replication read); a standby by its node alone. */
function timelineOf(replication: ReplicationFacts | null): string | null {
  if (replication === null) return null;
  return replication.role === 'primary' ? `${replication.node}|${replication.generation}` : `${replication.node}|standby`;
}

export class StatusService {
  readonly observer: StoreObserver;
  readonly pollIntervalMs: number;
  private readonly db: Queryable;
  private readonly heavyDb: Queryable;
  /** Heavy reads' own observer: their saturation never reads as "store unreadable" for the list. */
  private readonly heavyObserver: StoreObserver;
  private readonly heavy: LimitFunction;
  private readonly heavyQueueMax: number;
  private readonly heavyConcurrency: number;
  private inflight: Promise<LiveRead> | null = null;
  private probing: Promise<HealthzResponse> | null = null;
  /** Every scheduler as of the last successful list read; `readSnapshot` is that read's (null: read everything next). */
  readonly index = new LiveIndex();
  private readSnapshot: string | null = null;
  /** Which node and failover generation `readSnapshot` was taken on (`timelineOf`). */
  private readTimeline: string | null = null;
  /** Database time of the last successful LIST read (the facts in the index): other reads do not count. */
  private lastListAtMs: number | null = null;
  private snapshot: { live: LiveRead; atMono: number } | null = null;
  /** What was built from each live read (pages, metrics text); gone with the read. */
  private readonly memos = new WeakMap<LiveRead, ReadMemo>();
  private readonly listMaxAgeMs: number;
  private readonly mono: () => number;
  private readonly alertmanagerUrl: string | null;
  private readonly retention: RetentionPolicy;
  private readonly maxStandbyLagMs: number;
  private readonly rankedStripsMaxAgeMs: number;
  /** Ranked strips answers by query, with when they were asked (monotonic); failures are not kept. */
  private readonly rankedStrips = new Map<string, { atMono: number; answer: Promise<ReadResult<StripsResponse>> }>();

  constructor(options: StatusServiceOptions) {
    this.db = options.db;
    this.pollIntervalMs = options.pollIntervalMs;
    this.listMaxAgeMs = Math.max(0, options.listMaxAgeMs ?? 0);
    this.mono = options.monotonicMs ?? (() => performance.now());
    this.observer = new StoreObserver(options);
    this.heavyDb = options.heavyDb ?? options.db;
    this.heavyObserver = options.heavyDb ? new StoreObserver(options) : this.observer;
    this.heavy = pLimit(Math.max(1, options.heavyConcurrency ?? 4));
    this.heavyConcurrency = this.heavy.concurrency;
    this.heavyQueueMax = Math.max(0, options.heavyQueueMax ?? 32);
    this.alertmanagerUrl = options.alertmanagerUrl ?? null;
    this.retention = options.retention ?? DEFAULT_RETENTION;
    this.maxStandbyLagMs = options.maxStandbyLagMs ?? DEFAULT_MAX_STANDBY_LAG_MS;
    if (!(this.maxStandbyLagMs > 0)) throw new RangeError(`maxStandbyLagMs must be > 0, got ${this.maxStandbyLagMs}`);
    this.rankedStripsMaxAgeMs = Math.max(0, options.rankedStripsMaxAgeMs ?? 5_000);
  }

  private get deps(): ReadDeps {
    return {
      db: this.heavyDb,
      observer: this.heavyObserver,
      pollIntervalMs: this.pollIntervalMs,
      alertmanagerUrl: this.alertmanagerUrl,
      retention: this.retention,
      maxStandbyLagMs: this.maxStandbyLagMs,
    };
  }

  /** Runs a heavy read under the concurrency cap, or refuses it at once when too many wait. */
  private heavyRead<T>(read: () => Promise<ReadResult<T>>): Promise<ReadResult<T>> {
    const saturated = this.heavy.activeCount >= this.heavyConcurrency && this.heavy.pendingCount >= this.heavyQueueMax;
    if (saturated) return Promise.resolve(failed(HEAVY_BUSY));
    return this.heavy(read);
  }

  /**
   * All schedulers, read and projected (or degraded to unknown), in list
   * order; shared by concurrent callers and, when fresh, from the snapshot.
   */
  live(options: { fresh?: boolean } = {}): Promise<LiveRead> {
    const snap = this.snapshot;
    if (!options.fresh && snap !== null) {
      const age = this.mono() - snap.atMono;
      if (age <= this.listMaxAgeMs) {
        // Past half its life, refresh in the background (single-flight): under
        // steady polling no caller waits for a read, and none sees one older
        // than listMaxAgeMs.
        if (age > this.listMaxAgeMs / 2) void this.readShared().catch(() => {});
        return Promise.resolve(snap.live);
      }
    }
    return this.readShared();
  }

  private readShared(): Promise<LiveRead> {
    this.inflight ??= this.readLive().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private readLive(): Promise<LiveRead> {
    return traced('status read', {}, () => this.readLiveTraced(), { resultAttributes: (live) => ({ 'leaseboard.outcome': live.ok ? 'read' : 'unreadable' }) });
  }

  private async readLiveTraced(): Promise<LiveRead> {
    const started = this.mono();
    const since = this.readSnapshot;
    const sinceTimeline = this.readTimeline;
    let read: Awaited<ReturnType<typeof readChangedFacts>> | Awaited<ReturnType<typeof readAllFacts>>;
    let replication: ReplicationFacts | null;
    try {
      [read, replication] = await this.observer.read(
        'list read',
        async () => {
          // A moved time that did not fit the index (lib/server/live/live-index.ts): read everything again.
          const changes = since === null || this.index.needsFullRead ? null : await readChangedFacts(this.db, since);
          const facts = changes === null || changes.reset ? await readAllFacts(this.db) : changes;
          // After the facts, not beside them: one connection per read, and none more while the store hangs.
          const replication = await readReplicationFacts(this.db);
          // A snapshot says which transactions were read only on the timeline it was taken on: after a
          // failover the promoted node hands out again the ids of transactions lost with the old primary,
          // and their changes would pass for already read. Another node or generation: read everything.
          if ('changed' in facts && timelineOf(replication) !== sinceTimeline) return [await readAllFacts(this.db), replication] as const;
          return [facts, replication] as const;
        },
        ([r]) => Date.parse(r.now),
      );
    } catch {
      // The observer recorded the failure; answer unknown from what we last knew.
      this.snapshot = null;
      return this.degraded();
    }
    const durability = judgeDurability(replication, read.now, this.maxStandbyLagMs);
    if (answeredTooFarBehind(durability)) {
      // A standby too far behind vouches for nothing: unknown from what we last knew, never its stale green.
      this.snapshot = null;
      return this.degraded({ durability, why: 'standby_behind' });
    }
    // Outside the try: a projection fault is a bug to surface (a 500), never "store unreadable".
    const view = tracedSync('projection', { 'leaseboard.schedulers': 'schedulers' in read ? read.schedulers.length : read.changed.length }, () =>
      'schedulers' in read ? this.index.load(read.schedulers, read.now) : this.index.apply(read, read.now),
    );
    this.readSnapshot = read.snapshot;
    this.readTimeline = timelineOf(replication);
    this.lastListAtMs = Date.parse(read.now);
    const live = liveRead({ ok: true, now: read.now, lastObservedAt: read.now, view, reads: () => this.index.reads(), durability });
    this.snapshot = { live, atMono: started };
    return live;
  }

  private degraded(cause: { durability: Durability; why: 'standby_behind' } | null = null): LiveRead {
    const now = iso(this.observer.estimatedNowMs());
    // The facts we still hold were read at lastListAtMs; a health probe or a detail read since
    // does not make them any newer.
    const lastMs = this.lastListAtMs;
    const lastObservedAt = lastMs === null ? null : iso(lastMs);
    const reads: SchedulerRead[] = lastObservedAt === null ? [] : this.index.reads();
    const statuses =
      lastObservedAt === null
        ? []
        : sortStatuses(reads.map((r) => project({ ...r.facts, store: { ok: false, lastObservedAt, why: cause?.why ?? 'unreadable' } }, now, r.thresholds)));
    return liveRead({
      ok: false,
      now,
      lastObservedAt,
      view: statusesView(statuses),
      reads: () => reads,
      durability: cause?.durability ?? judgeDurability(null, now, this.maxStandbyLagMs),
    });
  }

  /**
   * `fresh` bypasses the shared snapshot (never the single-flight). Pages are
   * kept per live read (at most PAGES_PER_READ), so the pollers of one read
   * share one projection of their page — the same object, which the HTTP layer
   * serialises once: treat the answer as read-only.
   */
  async list(params: ListParams = {}, options: { fresh?: boolean } = {}): Promise<SchedulerListResponse> {
    const live = await this.live(options);
    const memo = this.memoOf(live);
    const p = normalizeListParams(params);
    const key = JSON.stringify([
      p.health === null ? null : [...p.health].sort(),
      p.q,
      p.names === null ? null : [...p.names].sort(),
      p.selector === null ? null : formatSelector(p.selector),
      p.limit,
      p.offset,
    ]);
    let page = memo.pages.get(key);
    if (page === undefined) {
      page = buildList(
        {
          observedAt: live.now,
          observation: { ok: live.ok, lastObservedAt: live.lastObservedAt },
          pollIntervalMs: this.pollIntervalMs,
          view: live.view,
          durability: live.durability,
        },
        params,
      );
      if (memo.pages.size >= PAGES_PER_READ) memo.pages.clear();
      memo.pages.set(key, page);
    }
    return page;
  }

  private memoOf(live: LiveRead): ReadMemo {
    let memo = this.memos.get(live);
    if (!memo) this.memos.set(live, (memo = { pages: new Map(), metrics: null }));
    return memo;
  }

  /** One scheduler now, or as of `atMs` (epoch ms) rebuilt from the logs. */
  detail(name: string, atMs: number | null = null): Promise<ReadResult<SchedulerDetailResponse>> {
    return this.heavyRead(() => traced('status read detail', { 'leaseboard.scheduler': name }, () => readDetail(this.deps, name, atMs)));
  }

  /** One scheduler's history over [fromMs, toMs] (null: the defaults, ./asof/history.ts). */
  history(name: string, fromMs: number | null = null, toMs: number | null = null): Promise<ReadResult<SchedulerHistoryResponse>> {
    return this.heavyRead(() => traced('status read history', { 'leaseboard.scheduler': name }, () => readHistory(this.deps, name, fromMs, toMs)));
  }

  /** Health strips over a window from the rollup (./asof/strips.ts): of named schedulers, or ranked by worst in window. */
  strips(query: StripsQuery): Promise<ReadResult<StripsResponse>> {
    if (query.names !== null) return this.heavyRead(() => readStrips(this.deps, query));
    // Ranking reads every scheduler: pollers of one page share an answer while the rollup cannot have changed much.
    const key = JSON.stringify([query.window, query.q, query.worst === null ? null : [...query.worst].sort(), query.limit, query.offset]);
    const kept = this.rankedStrips.get(key);
    if (kept !== undefined && this.mono() - kept.atMono <= this.rankedStripsMaxAgeMs) return kept.answer;
    const answer = this.heavyRead(() => readStrips(this.deps, query));
    if (this.rankedStrips.size >= PAGES_PER_READ) this.rankedStrips.clear();
    this.rankedStrips.set(key, { atMono: this.mono(), answer });
    void answer.then((r) => {
      if (!r.ok && this.rankedStrips.get(key)?.answer === answer) this.rankedStrips.delete(key);
    });
    return answer;
  }

  /** The operator audit trail (newest first), through the observer like every read. */
  audit(filter: { scheduler: string | null; limit: number }): Promise<ReadResult<AuditResponse>> {
    return this.heavyRead(async () => {
      try {
        const read = await this.heavyObserver.read(
          'audit read',
          () => readAudit(this.heavyDb, filter),
          (r) => r.nowMs,
        );
        return okResult({ entries: read.entries });
      } catch (error) {
        return unreadableResult(error);
      }
    });
  }

  /** Rules, modes, alerts (at most `limit`) and delivery (../alerts/read.ts), as a heavy read. */
  alerts(limit: number): Promise<ReadResult<AlertsResponse>> {
    return this.heavyRead(async () => {
      try {
        const read = await this.heavyObserver.read(
          'alerts read',
          () => readAlerts(this.heavyDb, { limit, alertmanagerUrl: this.alertmanagerUrl }),
          (r) => r.nowMs,
        );
        return okResult(read.body);
      } catch (error) {
        return unreadableResult(error);
      }
    });
  }

  /** The service's own health: can it read the store, and how fast. Nothing about schedulers. */
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

  /**
   * Prometheus text exposition of the live read, with the delivery status the
   * evaluator stored (omitted, not stale, when that small read fails); rendered
   * once per read: scrapes within one read share it (the service's own
   * read-latency gauge is the one at its first scrape).
   */
  async metrics(): Promise<MetricsText> {
    const live = await this.live();
    const memo = this.memoOf(live);
    return (memo.metrics ??= (async () => {
      const delivery = live.ok ? await readDeliveryTargets(this.db).catch(() => []) : [];
      return renderMetrics(live, this.observer.snapshot(), delivery);
    })());
  }
}

/**
 * The live read: every scheduler, read and projected (or degraded to
 * unknown), in list order — the one read behind the list, metrics and the
 * alert evaluator.
 *
 * Guarantees
 * - Single-flight: concurrent callers share ONE in-flight query, so a slow or
 *   dead store never piles up connections.
 * - Incremental (./live/live-index.ts): the first read takes every
 *   scheduler; each later one reads only the schedulers whose rows changed
 *   since the previous read's snapshot (change stamps and tombstones, see
 *   ./live/facts-sql.ts) and re-projects those plus the ones whose next
 *   threshold instant has come. The result equals a full read at the same
 *   instant (tested: lib/server/live/incremental.int.test.ts).
 * - A successful read is shared for `listMaxAgeMs` (monotonic clock); past
 *   half that age it is refreshed in the background while still served, so
 *   steady pollers never wait for a read. 0 disables. Failed reads are never
 *   shared: the next call tries the store again.
 * - When the store cannot be read: `ok=false`, `lastObservedAt` = the
 *   database time of the last successful read, and every scheduler it last
 *   knew projected with `store: { ok: false }` — all unknown, never stale
 *   green (docs/design.md, "Three places observation can break").
 * - Every read carries the durability fact (./live/durability.ts), read right
 *   after the facts under the same deadline; a failed replication read is
 *   `unknown`, never a mode. An incremental read answered by another node or
 *   failover generation than the snapshot it continues is discarded for a
 *   full read (xids are reused after a failover). A read answered by a
 *   standby too far behind (or whose lag cannot be measured) is not used: it
 *   answers as an unreadable store does, its durability saying which standby
 *   and how far behind.
 * - Nothing here reads the wall clock except the observer before the very
 *   first successful read.
 */
import { traced, tracedSync } from '../telemetry/span';
import { answeredTooFarBehind, type Durability, judgeDurability, project, type ReplicationFacts } from '../status';
import { toIso as iso } from '../status/time';
import { readReplicationFacts } from './live/durability';
import { readAllFacts, readChangedFacts, type Queryable, type SchedulerRead } from './live/facts';
import { liveRead, type LiveRead } from './live/list';
import { LiveIndex } from './live/live-index';
import { sortStatuses, statusesView } from './live/view';
import type { StoreObserver } from './store/observer';

export interface LiveReadsOptions {
  /** How long a successful read is reused (ms, monotonic); 0: every call reads. */
  listMaxAgeMs: number;
  monotonicMs: () => number;
  /** A standby further behind than this reads `behind` (lib/status/durability.ts). */
  maxStandbyLagMs: number;
}

/** The node and failover generation a read was answered on (null: unknown — a failed replication read); a standby by its node alone. */
function timelineOf(replication: ReplicationFacts | null): string | null {
  if (replication === null) return null;
  return replication.role === 'primary' ? `${replication.node}|${replication.generation}` : `${replication.node}|standby`;
}

export class LiveReads {
  /** Every scheduler as of the last successful read; `readSnapshot` is that read's (null: read everything next). */
  readonly index = new LiveIndex();
  private readSnapshot: string | null = null;
  /** Which node and failover generation `readSnapshot` was taken on (`timelineOf`). */
  private readTimeline: string | null = null;
  /** Database time of the last successful live read (the facts in the index): other reads do not count. */
  private lastListAtMs: number | null = null;
  private snapshot: { live: LiveRead; atMono: number } | null = null;
  private inflight: Promise<LiveRead> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly observer: StoreObserver,
    private readonly options: LiveReadsOptions,
  ) {}

  /** All schedulers, read and projected (or degraded to unknown); shared by concurrent callers and, when fresh, from the snapshot. */
  live(options: { fresh?: boolean } = {}): Promise<LiveRead> {
    const snap = this.snapshot;
    const maxAge = this.options.listMaxAgeMs;
    if (!options.fresh && snap !== null) {
      const age = this.options.monotonicMs() - snap.atMono;
      if (age <= maxAge) {
        // Past half its life, refresh in the background (single-flight): under
        // steady polling no caller waits for a read, and none sees one older
        // than listMaxAgeMs.
        if (age > maxAge / 2) void this.readShared().catch(() => {});
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
    const started = this.options.monotonicMs();
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
    const durability = judgeDurability(replication, read.now, this.options.maxStandbyLagMs);
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
      durability: cause?.durability ?? judgeDurability(null, now, this.options.maxStandbyLagMs),
    });
  }
}

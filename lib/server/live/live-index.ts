/**
 * The status service's statuses in memory, kept current incrementally: each
 * read applies only the schedulers whose facts changed (./facts.ts
 * `readChangedFacts`) and re-judges only those, plus those whose next
 * threshold instant (lib/status `nextJudgementChangeMs`) time has reached.
 *
 * Guarantees
 * - Pure: no I/O, no clock; `now` is the database time of the read applied.
 * - After `load(reads, now)` or `apply(changes, now)`, the view returned is
 *   what a full read at that instant gives: the same schedulers, the same
 *   health for each (so the same counts, order and pages), and page statuses
 *   projected at `now` by lib/status `project` itself.
 * - Each scheduler's judgement (health, gap, at-risk, epoch) is recomputed
 *   when its facts change or `now` reaches its next threshold; between those
 *   instants it cannot change (lib/status/next-change.ts). Should `now` ever
 *   go back, every scheduler is judged again.
 * - Times that moved alone (a renewal; a report that said nothing new:
 *   ./facts.ts `TimesMoved`) replace the held facts' times without judging
 *   again while `now` is before the entry's `timesBoundaryMs` (lib/status
 *   `movableTimesBoundaryMs`: no comparison on those times has passed, and
 *   moving them later cannot make one pass), else the entry is judged again.
 *   Its judgement and `nextChangeMs` are kept (the old deadline is the earlier
 *   one: at worst a harmless early re-judgement). Page statuses are projected
 *   from the held facts, so they show the new times; metric ages are updated.
 *   A moved time that does not fit the held facts (unknown name, other epoch)
 *   cannot come from a consistent reader: it sets `needsFullRead`.
 * - Views are immutable: later applies build new arrays and entries.
 * Costs: an apply is O(changed + due) projections plus, when anything
 * changed, one O(n) pass to rebuild the list order; a page projects only
 * its own statuses.
 * Non-guarantees: it trusts its input — a change the reader missed stays
 * missed (the change stamps and tombstones of migration status_change_stamps
 * are what make the reader complete).
 */
import { HEALTH_SEVERITY, healthRank, project, zeroCounts } from '../../status';
import { movableTimesBoundaryMs, nextJudgementChangeMs } from '../../status/next-change';
import { nowToMs, toMs } from '../../status/time';
import { type Health, NO_LABELS, type SchedulerStatus } from '../../status/types';
import type { SchedulerRead, TimesMoved } from './facts';
import type { NormalizedListParams } from './list-params';
import { filterPage } from './filter-page';
import { type Judgement, judgementOf, type LiveView, type MetricRow, type ViewPage } from './view';

/** A scheduler's judgement, its ages at `judgedAtMs` (they grow one for one with time), and when time alone next changes it. */
interface Entry extends Judgement {
  readonly read: SchedulerRead;
  readonly judgedAtMs: number;
  readonly nextChangeMs: number;
  /** Before this instant, times moved later leave the judgement as it is (lib/status `movableTimesBoundaryMs`). */
  readonly timesBoundaryMs: number;
}

/** What one apply did (for benches and tests). */
export interface ApplyStats {
  changed: number;
  removed: number;
  /** Judged again because time reached their next threshold. */
  timed: number;
  /** Given moved times (a renewal, a report that said nothing new), and of those judged again. */
  moved: number;
  movedJudged: number;
  /** Whether the list order was rebuilt. */
  rebuilt: boolean;
}

function judge(read: SchedulerRead, now: string, nowMs: number): Entry {
  return {
    ...judgementOf(project(read.facts, now, read.thresholds)),
    read,
    judgedAtMs: nowMs,
    nextChangeMs: nextJudgementChangeMs(read.facts, nowMs, read.thresholds),
    timesBoundaryMs: movableTimesBoundaryMs(read.facts, read.thresholds),
  };
}

/** The read with `moved`'s times, or null when they do not fit it (no such lease or summary, another epoch). */
function withMovedTimes(read: SchedulerRead, moved: TimesMoved): SchedulerRead | null {
  const { lease, progress } = read.facts;
  if (moved.kind === 'renewal') {
    if (lease === null || lease.epoch !== moved.epoch) return null;
    return { ...read, facts: { ...read.facts, lease: { ...lease, renewedAt: moved.renewedAt, expiresAt: moved.expiresAt } } };
  }
  if (progress === null || progress.epoch !== moved.epoch) return null;
  return { ...read, facts: { ...read.facts, progress: { ...progress, lastReportAt: moved.lastReportAt, lastSeq: moved.lastSeq } } };
}

/** The entry holding `read` (moved times only), its judgement kept; its metric ages as of `judgedAtMs` follow the moved times. */
function retimed(entry: Entry, read: SchedulerRead, moved: TimesMoved): Entry {
  if (moved.kind === 'renewal') {
    const renewalAgeMs = entry.renewalAgeMs === null ? null : entry.judgedAtMs - toMs('lease.renewedAt', moved.renewedAt);
    return { ...entry, read, renewalAgeMs };
  }
  const lastReportAgeMs = entry.lastReportAgeMs === null ? null : entry.judgedAtMs - toMs('progress.lastReportAt', moved.lastReportAt);
  return { ...entry, read, lastReportAgeMs };
}

const byName = (a: Entry, b: Entry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const RANKS = HEALTH_SEVERITY.length;

export class LiveIndex {
  /** Sorted by name; entries are replaced, never mutated. */
  private byName: Entry[] = [];
  private position = new Map<string, number>();
  /** List order (worst health first, then name): a new array whenever anything changed. */
  private ordered: Entry[] = [];
  /** ordered[starts[r] .. starts[r + 1]) holds health rank r. */
  private starts: number[] = new Array<number>(RANKS + 1).fill(0);
  private lastNowMs = -Infinity;
  private unfit = false;
  lastApply: ApplyStats = { changed: 0, removed: 0, timed: 0, moved: 0, movedJudged: 0, rebuilt: false };

  /** A moved time did not fit what is held (a reader bug): the next read should be a full one (`load`). */
  get needsFullRead(): boolean {
    return this.unfit;
  }

  get size(): number {
    return this.byName.length;
  }

  /** Every scheduler read, replacing what was held (the first read, or after a reset). */
  load(reads: readonly SchedulerRead[], now: string): LiveView {
    const nowMs = nowToMs(now);
    this.byName = reads.map((read) => judge(read, now, nowMs)).sort(byName);
    this.reindex();
    this.rebuildOrder();
    this.lastNowMs = nowMs;
    this.unfit = false;
    this.lastApply = { changed: reads.length, removed: 0, timed: 0, moved: 0, movedJudged: 0, rebuilt: true };
    return this.view(now);
  }

  /** The schedulers changed (or gone), and the times moved, since the previous read, at `now`; re-judges what time alone changed. */
  apply(changes: { changed: readonly SchedulerRead[]; removed: readonly string[]; moved?: readonly TimesMoved[] }, now: string): LiveView {
    const nowMs = nowToMs(now);
    const backwards = nowMs < this.lastNowMs;
    let structural = false;
    let replaced = false;
    const fresh = new Set<string>();
    for (const read of changes.changed) {
      const entry = judge(read, now, nowMs);
      fresh.add(entry.name);
      const at = this.position.get(entry.name);
      if (at === undefined) {
        this.byName.push(entry);
        structural = true;
      } else {
        this.byName[at] = entry;
        replaced = true;
      }
    }
    const gone = new Set(changes.removed.filter((name) => this.position.has(name) && !fresh.has(name)));
    if (gone.size > 0) {
      this.byName = this.byName.filter((entry) => !gone.has(entry.name));
      structural = true;
    }
    if (structural) {
      this.byName.sort(byName);
      this.reindex();
    }
    let movedJudged = 0;
    for (const moved of changes.moved ?? []) {
      if (fresh.has(moved.name)) continue; // read whole in this same snapshot
      const at = this.position.get(moved.name);
      const entry = at === undefined ? undefined : this.byName[at]!;
      const read = entry === undefined ? null : withMovedTimes(entry.read, moved);
      if (entry === undefined || read === null) {
        this.unfit = true;
        continue;
      }
      if (!backwards && nowMs < entry.timesBoundaryMs) {
        this.byName[at!] = retimed(entry, read, moved);
      } else {
        this.byName[at!] = judge(read, now, nowMs);
        movedJudged += 1;
      }
      replaced = true;
    }
    let timed = 0;
    for (let i = 0; i < this.byName.length; i++) {
      const entry = this.byName[i]!;
      if ((backwards || entry.nextChangeMs <= nowMs) && entry.judgedAtMs !== nowMs) {
        this.byName[i] = judge(entry.read, now, nowMs);
        timed += 1;
      }
    }
    const rebuilt = structural || replaced || timed > 0;
    if (rebuilt) this.rebuildOrder();
    this.lastNowMs = nowMs;
    const moved = changes.moved?.length ?? 0;
    this.lastApply = { changed: changes.changed.length, removed: gone.size, timed, moved, movedJudged, rebuilt };
    return this.view(now);
  }

  /** The reads held, in list order. */
  reads(): SchedulerRead[] {
    return this.ordered.map((entry) => entry.read);
  }

  private reindex(): void {
    this.position = new Map(this.byName.map((entry, i) => [entry.name, i]));
  }

  private rebuildOrder(): void {
    const buckets: Entry[][] = Array.from({ length: RANKS }, () => []);
    for (const entry of this.byName) buckets[healthRank(entry.health)]!.push(entry);
    const starts = [0];
    for (const bucket of buckets) starts.push(starts.at(-1)! + bucket.length);
    this.ordered = buckets.flat();
    this.starts = starts;
  }

  private view(now: string): LiveView {
    return new IndexView(this.ordered, this.starts, now, nowToMs(now));
  }
}

/** What the list's filters read of an entry. */
const ENTRY_FIELDS = { name: (e: Entry) => e.name, labels: (e: Entry) => e.read.facts.labels, health: (e: Entry) => e.health };

class IndexView implements LiveView {
  readonly counts: Readonly<Record<Health, number>>;

  constructor(
    private readonly ordered: readonly Entry[],
    private readonly starts: readonly number[],
    private readonly now: string,
    private readonly nowMs: number,
  ) {
    const counts = zeroCounts();
    HEALTH_SEVERITY.forEach((health, rank) => (counts[health] = starts[rank + 1]! - starts[rank]!));
    this.counts = counts;
  }

  get size(): number {
    return this.ordered.length;
  }

  private status(entry: Entry): SchedulerStatus {
    return project(entry.read.facts, this.now, entry.read.thresholds);
  }

  page(p: NormalizedListParams): ViewPage {
    if (p.q !== null || p.names !== null || p.selector !== null || p.group !== null) {
      const { picked, ...rest } = filterPage(this.ordered, p, ENTRY_FIELDS);
      return { ...rest, schedulers: picked.map((entry) => this.status(entry)) };
    }
    // No name or label filter: whole health buckets, sliced, never scanned.
    const picked: Entry[] = [];
    let total = 0;
    HEALTH_SEVERITY.forEach((health, rank) => {
      if (p.health !== null && !p.health.has(health)) return;
      const from = this.starts[rank]!;
      const to = this.starts[rank + 1]!;
      const skip = Math.max(0, p.offset - total);
      const take = Math.min(to - from - Math.min(skip, to - from), p.limit - picked.length);
      if (take > 0) picked.push(...this.ordered.slice(from + skip, from + skip + take));
      total += to - from;
    });
    return { total, schedulers: picked.map((entry) => this.status(entry)), matched: { ...this.counts }, groups: null };
  }

  all(): SchedulerStatus[] {
    return this.ordered.map((entry) => this.status(entry));
  }

  metricRows(): MetricRow[] {
    return this.ordered.map((e) => {
      const elapsed = this.nowMs - e.judgedAtMs;
      const age = (ms: number | null) => (ms === null ? null : ms + elapsed);
      return {
        name: e.name,
        health: e.health,
        gap: e.gap,
        atRisk: e.atRisk,
        epoch: e.epoch,
        renewalAgeMs: age(e.renewalAgeMs),
        lastAdvanceAgeMs: age(e.lastAdvanceAgeMs),
        lastReportAgeMs: age(e.lastReportAgeMs),
        lastRejectionAt: e.read.lastRejectionAt,
        labels: e.read.facts.labels ?? NO_LABELS,
      };
    });
  }
}

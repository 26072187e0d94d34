/**
 * A live view: every scheduler the status service knows at one instant, in
 * list order (worst health first, then name), and what list pages and
 * metrics need from it — without projecting what nobody asked for.
 *
 * Guarantees: a view never changes once made (the next read makes a new one),
 * so concurrent requests paging through it agree; `page` and `all` return
 * statuses exactly as `project(facts, now, thresholds)` gives them at the
 * view's `now`; counts are over all schedulers.
 * Non-guarantees: `all()` costs a projection of every scheduler (use `page`
 * or `metricRows` where they do).
 */
import { healthRank, zeroCounts } from '../../status';
import type { Health, SchedulerLabels, SchedulerStatus } from '../../status/types';
import { filterPage, type FilteredPage } from './filter-page';
import type { NormalizedListParams } from './list-params';

export type ViewPage = Omit<FilteredPage<SchedulerStatus>, 'picked'> & { schedulers: SchedulerStatus[] };

/** What a status says that /api/metrics exports: its judgement and its ages at the status's `now`. */
export interface Judgement {
  readonly name: string;
  readonly health: Health;
  readonly gap: boolean;
  readonly atRisk: boolean;
  readonly epoch: number | null;
  readonly renewalAgeMs: number | null;
  readonly lastAdvanceAgeMs: number | null;
  readonly lastReportAgeMs: number | null;
}

export function judgementOf(s: SchedulerStatus): Judgement {
  return {
    name: s.name,
    health: s.health,
    gap: s.observation.gap !== null,
    atRisk: s.authority.atRisk,
    epoch: s.authority.epoch,
    renewalAgeMs: s.authority.renewalAgeMs,
    lastAdvanceAgeMs: s.work.lastAdvanceAgeMs,
    lastReportAgeMs: s.work.lastReportAgeMs,
  };
}

/** The per-scheduler numbers /api/metrics exports, at the view's `now`. */
export interface MetricRow extends Judgement {
  /** The newest stale-write rejection logged for the lease (a store fact, not judged), or null. */
  readonly lastRejectionAt: string | null;
  /** Its labels (the info metric's team, and what a maintenance window's selector matches). */
  readonly labels: SchedulerLabels;
}

export interface LiveView {
  /** Schedulers in the view. */
  readonly size: number;
  /** By health, over all schedulers. */
  readonly counts: Readonly<Record<Health, number>>;
  /** Filtered by health, name and labels, in list order (grouped first when asked): the page and what ./filter-page.ts summarises. */
  page(params: NormalizedListParams): ViewPage;
  /** Every status, in list order (projects every scheduler). */
  all(): SchedulerStatus[];
  metricRows(): MetricRow[];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Worst health first (lib/status `healthRank`), then name: the list's order. */
export function sortStatuses(statuses: readonly SchedulerStatus[]): SchedulerStatus[] {
  return statuses
    .map((status) => ({ status, rank: healthRank(status.health) }))
    .sort((a, b) => a.rank - b.rank || byName(a.status.name, b.status.name))
    .map((x) => x.status);
}

/** What the list's filters read of a status. */
const STATUS_FIELDS = { name: (s: SchedulerStatus) => s.name, labels: (s: SchedulerStatus) => s.labels, health: (s: SchedulerStatus) => s.health };

/** A view over statuses already projected (and sorted by `sortStatuses`): the degraded answer, tests. */
export function statusesView(sorted: readonly SchedulerStatus[]): LiveView {
  const counts = zeroCounts();
  for (const status of sorted) counts[status.health] += 1;
  return {
    size: sorted.length,
    counts,
    page(p) {
      const { picked, ...rest } = filterPage(sorted, p, STATUS_FIELDS);
      return { ...rest, schedulers: picked };
    },
    all: () => [...sorted],
    metricRows: () => sorted.map((s) => ({ ...judgementOf(s), lastRejectionAt: null, labels: s.labels })),
  };
}

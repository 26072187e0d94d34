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
import { type Health, NO_LABELS, type SchedulerLabels, type SchedulerStatus } from '../../status/types';
import { matchesSelector } from '../../limits/selector';
import type { NormalizedListParams } from './list-params';

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
}

export interface LiveView {
  /** Schedulers in the view. */
  readonly size: number;
  /** By health, over all schedulers. */
  readonly counts: Readonly<Record<Health, number>>;
  /** Filtered by health, name and labels, in list order: the matching total and the statuses of one page. */
  page(params: NormalizedListParams): { total: number; schedulers: SchedulerStatus[] };
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

const matchesName = (name: string, q: string | null) => q === null || name.toLowerCase().includes(q);

/** The name query and the exact names of a list's parameters (each null: any). */
const matchesNames = (name: string, p: { q: string | null; names: ReadonlySet<string> | null }) =>
  matchesName(name, p.q) && (p.names === null || p.names.has(name));

/** The name filters and the label selector of a list's parameters (each null: any). */
export const matchesFilter = (name: string, labels: SchedulerLabels | undefined, p: NormalizedListParams) =>
  matchesNames(name, p) && (p.selector === null || matchesSelector(p.selector, labels ?? NO_LABELS));

/** A view over statuses already projected (and sorted by `sortStatuses`): the degraded answer, tests. */
export function statusesView(sorted: readonly SchedulerStatus[]): LiveView {
  const counts = zeroCounts();
  for (const status of sorted) counts[status.health] += 1;
  return {
    size: sorted.length,
    counts,
    page(p) {
      const schedulers: SchedulerStatus[] = [];
      let total = 0;
      for (const status of sorted) {
        if (p.health !== null && !p.health.has(status.health)) continue;
        if (!matchesFilter(status.name, status.labels, p)) continue;
        if (total >= p.offset && schedulers.length < p.limit) schedulers.push(status);
        total += 1;
      }
      return { total, schedulers };
    },
    all: () => [...sorted],
    metricRows: () => sorted.map((s) => ({ ...judgementOf(s), lastRejectionAt: null })),
  };
}

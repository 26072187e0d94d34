/**
 * One filtered page of a live view, and what the overview summarises about
 * the selection: the counts by health of the schedulers the name query and
 * the label selector match (before the health filter, so the filter's own
 * counts stay meaningful), and — when the list is grouped by a label key —
 * the same counts per value of that label.
 *
 * Guarantees: pure (no I/O, no clock); one pass over the view plus, when
 * grouped, a stable sort of the matched rows by group value, so a page holds
 * its groups contiguously and within a group keeps the list's order (worst
 * health first, then name). Schedulers without the label form the last
 * group (value null). Bounded: a group per distinct value among the matched
 * schedulers, at most one per scheduler.
 */
import { matchesSelector } from '../../limits/selector';
import { zeroCounts } from '../../status';
import { type Health, NO_LABELS, type SchedulerLabels } from '../../status/types';
import type { NormalizedListParams } from './list-params';

interface GroupSummary {
  /** The label's value, or null for the schedulers without the label. */
  value: string | null;
  total: number;
  counts: Record<Health, number>;
}

export interface FilteredPage<T> {
  /** Rows matching every filter (health included), before paging. */
  total: number;
  picked: T[];
  /** By health over the rows matching the name query and selector (health filter not applied). */
  matched: Record<Health, number>;
  /** Per value of the grouping label (null: not grouped), in group order. */
  groups: GroupSummary[] | null;
}

/** How to read a row's name, labels and health (accessors: a scan allocates nothing per row). */
interface Fields<T> {
  name(item: T): string;
  labels(item: T): SchedulerLabels | undefined;
  health(item: T): Health;
}

/** Group order: values in code-point order, then the schedulers without the label. */
const matchesName = (name: string, q: string | null) => q === null || name.toLowerCase().includes(q);

/** The name query and the exact names of a list's parameters (each null: any). */
const matchesNames = (name: string, p: { q: string | null; names: ReadonlySet<string> | null }) =>
  matchesName(name, p.q) && (p.names === null || p.names.has(name));

/** The name filters and the label selector of a list's parameters (each null: any). */
const matchesFilter = (name: string, labels: SchedulerLabels | undefined, p: NormalizedListParams) =>
  matchesNames(name, p) && (p.selector === null || matchesSelector(p.selector, labels ?? NO_LABELS));

export function compareGroupValues(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

export function filterPage<T>(ordered: readonly T[], p: NormalizedListParams, fields: Fields<T>): FilteredPage<T> {
  const matched = zeroCounts();
  // Ungrouped, only the page is kept; grouped, every match (its page is known after the sort).
  const kept: { item: T; group: string | null }[] = [];
  let total = 0;
  const groups = new Map<string | null, GroupSummary>();
  for (const item of ordered) {
    const labels = fields.labels(item);
    if (!matchesFilter(fields.name(item), labels, p)) continue;
    const health = fields.health(item);
    matched[health] += 1;
    const group = p.group === null ? null : (labels?.[p.group] ?? null);
    if (p.group !== null) {
      let summary = groups.get(group);
      if (summary === undefined) groups.set(group, (summary = { value: group, total: 0, counts: zeroCounts() }));
      summary.total += 1;
      summary.counts[health] += 1;
    }
    if (p.health !== null && !p.health.has(health)) continue;
    if (p.group !== null || (total >= p.offset && kept.length < p.limit)) kept.push({ item, group });
    total += 1;
  }
  // Array.prototype.sort is stable: within a group the list's order stays.
  if (p.group !== null) kept.sort((a, b) => compareGroupValues(a.group, b.group));
  return {
    total,
    picked: (p.group === null ? kept : kept.slice(p.offset, p.offset + p.limit)).map((k) => k.item),
    matched,
    groups: p.group === null ? null : [...groups.values()].sort((a, b) => compareGroupValues(a.value, b.value)),
  };
}

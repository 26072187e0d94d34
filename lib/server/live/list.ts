/**
 * The scheduler list: counts by health over ALL schedulers, then filter,
 * order worst-first and page — from a live view (./view.ts), which projects
 * only the page it returns.
 *
 * Guarantees: pure (no I/O, no clock; `now` is the read's database time);
 * page size and offset are clamped to server ceilings (docs/design.md,
 * invariant 11); order is lib/status severity (`healthRank`) then name, so
 * pages are stable.
 * Non-guarantees: two pages fetched at different times may overlap or skip
 * a scheduler whose health changed in between.
 */
import type { Observation, SchedulerListResponse } from '../../api/types';
import { project } from '../../status';
import type { SchedulerStatus } from '../../status/types';
import type { Durability } from '../../status';
import type { SchedulerRead } from './facts';
import { normalizeListParams, type ListParams } from './list-params';
import type { LiveView } from './view';

export { normalizeListParams, type ListParams } from './list-params';
export { sortStatuses, statusesView, type LiveView } from './view';

/** Projects every read at `now` (ISO, database time). */
export function projectAll(reads: readonly SchedulerRead[], now: string): SchedulerStatus[] {
  return reads.map((r) => project(r.facts, now, r.thresholds));
}

/**
 * All schedulers, read and projected (or degraded to unknown), in list order:
 * what list and metrics answer from. `view` is the cheap way in; `statuses`
 * and `reads` are computed on first use (projecting every scheduler) and kept.
 */
export type LiveRead = {
  now: string;
  view: LiveView;
  /** What protects the authority, as the node that answered said (unknown when degraded). */
  durability: Durability;
  readonly statuses: SchedulerStatus[];
  readonly reads: SchedulerRead[];
} & ({ ok: true; lastObservedAt: string } | { ok: false; lastObservedAt: string | null });

/** A LiveRead whose `statuses` and `reads` are made on first use. */
export function liveRead(
  fields: ({ ok: true; lastObservedAt: string } | { ok: false; lastObservedAt: string | null }) & {
    now: string;
    view: LiveView;
    reads: () => SchedulerRead[];
    durability: Durability;
  },
): LiveRead {
  let statuses: SchedulerStatus[] | null = null;
  let reads: SchedulerRead[] | null = null;
  const lazy = {
    now: fields.now,
    view: fields.view,
    durability: fields.durability,
    get statuses() {
      return (statuses ??= fields.view.all());
    },
    get reads() {
      return (reads ??= fields.reads());
    },
  };
  return fields.ok
    ? Object.assign(lazy, { ok: true as const, lastObservedAt: fields.lastObservedAt })
    : Object.assign(lazy, { ok: false as const, lastObservedAt: fields.lastObservedAt });
}

export interface ListInput {
  observedAt: string;
  observation: Observation;
  pollIntervalMs: number;
  view: LiveView;
  durability: Durability;
}

export function buildList(input: ListInput, params: ListParams = {}): SchedulerListResponse {
  const p = normalizeListParams(params);
  const { total, schedulers, matched, groups } = input.view.page(p);
  return {
    observedAt: input.observedAt,
    observation: input.observation,
    pollIntervalMs: input.pollIntervalMs,
    counts: { ...input.view.counts },
    total,
    matched,
    groups,
    limit: p.limit,
    offset: p.offset,
    schedulers,
    durability: input.durability,
  };
}

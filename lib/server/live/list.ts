/**
 * The scheduler list: project every scheduler read (lib/status rules), count
 * by health over ALL of them, then filter, sort worst-first and page.
 *
 * Guarantees: pure (no I/O, no clock; `now` is the read's database time);
 * page size and offset are clamped to server ceilings (invariant 11); order
 * is lib/status severity (`healthRank`) then name, so pages are stable;
 * statuses are sorted once per read (`sortStatuses`), not once per page.
 * Non-guarantees: two pages fetched at different times may overlap or skip
 * a scheduler whose health changed in between.
 */
import type { Observation, SchedulerListResponse } from '../../api/types';
import { healthRank, HEALTH_SEVERITY, project } from '../../status';
import type { Health, SchedulerStatus } from '../../status/types';
import type { SchedulerRead } from './facts';
import type { ListParams } from '../http/result';

export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 500;
export const LIST_OFFSET_MAX = 1_000_000;
export const NAME_QUERY_MAX = 200;

export interface NormalizedListParams {
  health: ReadonlySet<Health> | null;
  q: string | null;
  limit: number;
  offset: number;
}

const clampInt = (value: number | undefined, fallback: number, min: number, max: number) =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.min(max, Math.max(min, Math.trunc(value)));

export function normalizeListParams(params: ListParams = {}): NormalizedListParams {
  const health = params.health?.filter((h) => HEALTH_SEVERITY.includes(h)) ?? [];
  const q = params.q?.trim().slice(0, NAME_QUERY_MAX).toLowerCase() ?? '';
  return {
    health: health.length === 0 ? null : new Set(health),
    q: q === '' ? null : q,
    limit: clampInt(params.limit, LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX),
    offset: clampInt(params.offset, 0, 0, LIST_OFFSET_MAX),
  };
}

export function emptyCounts(): Record<Health, number> {
  return { stalled: 0, no_leader: 0, unknown: 0, disabled: 0, idle: 0, progressing: 0 };
}

/** Projects every read at `now` (ISO, database time). */
export function projectAll(reads: readonly SchedulerRead[], now: string): SchedulerStatus[] {
  return reads.map((r) => project(r.facts, now, r.thresholds));
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Worst health first (lib/status `healthRank`), then name: the list's order. */
export function sortStatuses(statuses: readonly SchedulerStatus[]): SchedulerStatus[] {
  return statuses
    .map((status) => ({ status, rank: healthRank(status.health) }))
    .sort((a, b) => a.rank - b.rank || byName(a.status.name, b.status.name))
    .map((x) => x.status);
}

export interface ListInput {
  observedAt: string;
  observation: Observation;
  pollIntervalMs: number;
  /** Already in list order (`sortStatuses`), so a page costs one filtering pass. */
  statuses: readonly SchedulerStatus[];
}

export function buildList(input: ListInput, params: ListParams = {}): SchedulerListResponse {
  const p = normalizeListParams(params);
  const counts = emptyCounts();
  const page: SchedulerStatus[] = [];
  let total = 0;
  for (const status of input.statuses) {
    counts[status.health] += 1;
    if (p.health !== null && !p.health.has(status.health)) continue;
    if (p.q !== null && !status.name.toLowerCase().includes(p.q)) continue;
    if (total >= p.offset && page.length < p.limit) page.push(status);
    total += 1;
  }
  return {
    observedAt: input.observedAt,
    observation: input.observation,
    pollIntervalMs: input.pollIntervalMs,
    counts,
    total,
    limit: p.limit,
    offset: p.offset,
    schedulers: page,
  };
}

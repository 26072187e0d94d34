/**
 * The list's parameters, clamped to server ceilings (docs/design.md,
 * invariant 11): page size, offset, health filter, name query and label
 * selector (parsed by lib/limits/selector.ts, bounded there). The ceilings
 * are the list query's (lib/api/list-query.ts).
 * Pure: no I/O, no clock.
 */
import { HEALTH_SEVERITY } from '../../status';
import type { Health } from '../../status/types';
import type { Selector } from '../../limits/selector';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX, NAME_QUERY_MAX, type ListQuery } from '../../api/list-query';

/**
 * The list query (lib/api/list-query.ts) after parsing (lib/server/http/params.ts), its selector parsed;
 * clamped again here: at most LIST_LIMIT_MAX names kept, limit in [1, LIST_LIMIT_MAX] (default
 * LIST_LIMIT_DEFAULT), offset in [0, LIST_OFFSET_MAX], an absent or empty selector or health list: any.
 */
export type ListParams = Omit<ListQuery, 'selector'> & { selector?: Selector };

export interface NormalizedListParams {
  health: ReadonlySet<Health> | null;
  /** Lower-cased name substring, or null for any name. */
  q: string | null;
  /** Exact names, or null for any. */
  names: ReadonlySet<string> | null;
  /** A label selector with at least one requirement, or null for any labels. */
  selector: Selector | null;
  /** A label key to group by, or null. */
  group: string | null;
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
    names: params.names === undefined ? null : new Set(params.names.slice(0, LIST_LIMIT_MAX)),
    selector: params.selector === undefined || params.selector.length === 0 ? null : params.selector,
    group: params.group === undefined || params.group === '' ? null : params.group,
    limit: clampInt(params.limit, LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX),
    offset: clampInt(params.offset, 0, 0, LIST_OFFSET_MAX),
  };
}

/**
 * The list's parameters, clamped to server ceilings (docs/design.md,
 * invariant 11): page size, offset, health filter, name query and label
 * selector (parsed by lib/limits/selector.ts, bounded there).
 * Pure: no I/O, no clock.
 */
import { HEALTH_SEVERITY } from '../../status';
import type { Health } from '../../status/types';
import type { Selector } from '../../limits/selector';

export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 500;
export const LIST_OFFSET_MAX = 1_000_000;
export const NAME_QUERY_MAX = 200;

/** Query of GET /api/v1/schedulers after parsing (lib/server/http/params.ts); clamped again here. */
export interface ListParams {
  /** Only these healths (empty or absent: all). */
  health?: readonly Health[];
  /** Case-insensitive substring of the scheduler name. */
  q?: string;
  /** Only these names (absent: any); at most LIST_LIMIT_MAX are kept. */
  names?: readonly string[];
  /** Only schedulers whose labels satisfy it (absent or empty: any). */
  selector?: Selector;
  /** Page size; clamped to [1, LIST_LIMIT_MAX], default LIST_LIMIT_DEFAULT. */
  limit?: number;
  /** Clamped to [0, LIST_OFFSET_MAX], default 0. */
  offset?: number;
}

export interface NormalizedListParams {
  health: ReadonlySet<Health> | null;
  /** Lower-cased name substring, or null for any name. */
  q: string | null;
  /** Exact names, or null for any. */
  names: ReadonlySet<string> | null;
  /** A label selector with at least one requirement, or null for any labels. */
  selector: Selector | null;
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
    limit: clampInt(params.limit, LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX),
    offset: clampInt(params.offset, 0, 0, LIST_OFFSET_MAX),
  };
}

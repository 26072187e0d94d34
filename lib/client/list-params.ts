/**
 * The overview's filter, search, page, history window and order, as they
 * appear in the page URL (`?health=stalled&q=retention&page=2&window=24h&order=worst`)
 * and in the API queries (list: `health`, `q`, `limit`, `offset`; strips:
 * `window`, `worst`, `q`, `limit`, `offset`). In `order=worst` the health
 * filter applies to the worst health in the window. One parser serves the server render and
 * the browser so both ask for the same page.
 *
 * Guarantees: parsing never throws; unknown health values and bad page numbers
 * fall back to "all" and page 1 (the server clamps again: docs/design.md, invariant 11).
 */
import { HEALTH_SEVERITY, isStripWindow, type Health, type StripWindow } from '@/lib/status';

export const PAGE_SIZE = 100;
const MAX_SEARCH_LENGTH = 100;

export interface SchedulerListParams {
  health: Health | null;
  /** Case-insensitive substring of the scheduler name; '' = no search. */
  search: string;
  /** 1-based. */
  page: number;
  /** The strips' window. */
  window: StripWindow;
  /** Rows by health now (the list's order) or by worst health in the window. */
  order: ListOrder;
}

export type ListOrder = 'now' | 'worst';

export const DEFAULT_LIST_PARAMS: SchedulerListParams = { health: null, search: '', page: 1, window: '1h', order: 'now' };

type RawParams = Record<string, string | string[] | undefined> | URLSearchParams;

function first(raw: RawParams, key: string): string | undefined {
  if (raw instanceof URLSearchParams) return raw.get(key) ?? undefined;
  const value = raw[key];
  return Array.isArray(value) ? value[0] : value;
}

function isHealth(value: string | undefined): value is Health {
  return value !== undefined && (HEALTH_SEVERITY as readonly string[]).includes(value);
}

export function parseListParams(raw: RawParams): SchedulerListParams {
  const health = first(raw, 'health');
  const page = Number.parseInt(first(raw, 'page') ?? '1', 10);
  const window = first(raw, 'window');
  return {
    window: isStripWindow(window) ? window : '1h',
    order: first(raw, 'order') === 'worst' ? 'worst' : 'now',
    health: isHealth(health) ? health : null,
    search: (first(raw, 'q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The page URL's query string (no leading `?`); defaults are left out. */
export function pageSearchParams(params: SchedulerListParams): string {
  const out = new URLSearchParams();
  if (params.health) out.set('health', params.health);
  if (params.search) out.set('q', params.search);
  if (params.page > 1) out.set('page', String(params.page));
  if (params.window !== '1h') out.set('window', params.window);
  if (params.order !== 'now') out.set('order', params.order);
  return out.toString();
}

/** The list API's query string for one page (by health now), or for exactly `names` (a ranked page's rows). */
export function listSearchParams(params: SchedulerListParams, names: readonly string[] | null = null): string {
  const out = new URLSearchParams();
  if (names !== null) {
    for (const name of names) out.append('name', name);
    out.set('limit', String(PAGE_SIZE));
    return out.toString();
  }
  if (params.health) out.set('health', params.health);
  if (params.search) out.set('q', params.search);
  out.set('limit', String(PAGE_SIZE));
  out.set('offset', String((params.page - 1) * PAGE_SIZE));
  return out.toString();
}

/** The strips API's query: the rows named, or (order=worst) a page ranked by worst health in the window. */
export function stripsSearchParams(params: SchedulerListParams, names: readonly string[] | null): string {
  const out = new URLSearchParams({ window: params.window });
  if (names !== null) {
    for (const name of names) out.append('name', name);
    return out.toString();
  }
  if (params.health) out.set('worst', params.health);
  if (params.search) out.set('q', params.search);
  out.set('limit', String(PAGE_SIZE));
  out.set('offset', String((params.page - 1) * PAGE_SIZE));
  return out.toString();
}

export function listOffset(params: SchedulerListParams): number {
  return (params.page - 1) * PAGE_SIZE;
}

/**
 * The overview's filter, search and page, as they appear in the page URL
 * (`?health=stalled&q=retention&page=2`) and in the API query
 * (`health`, `q`, `limit`, `offset`). One parser serves the server render and
 * the browser so both ask for the same page.
 *
 * Guarantees: parsing never throws; unknown health values and bad page numbers
 * fall back to "all" and page 1 (the server clamps again: docs/design.md, invariant 11).
 */
import { HEALTH_SEVERITY, type Health } from '@/lib/status';

export const PAGE_SIZE = 100;
const MAX_SEARCH_LENGTH = 100;

export interface SchedulerListParams {
  health: Health | null;
  /** Case-insensitive substring of the scheduler name; '' = no search. */
  search: string;
  /** 1-based. */
  page: number;
}

export const DEFAULT_LIST_PARAMS: SchedulerListParams = { health: null, search: '', page: 1 };

type RawParams = Record<string, string | string[] | undefined> | URLSearchParams;

function first(raw: RawParams, key: string): string | undefined {
  if (raw instanceof URLSearchParams) return raw.get(key) ?? undefined;
  const value = raw[key];
  return Array.isArray(value) ? value[0] : value;
}

export function isHealth(value: string | undefined): value is Health {
  return value !== undefined && (HEALTH_SEVERITY as readonly string[]).includes(value);
}

export function parseListParams(raw: RawParams): SchedulerListParams {
  const health = first(raw, 'health');
  const page = Number.parseInt(first(raw, 'page') ?? '1', 10);
  return {
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
  return out.toString();
}

/** The API's query string for one page. */
export function listSearchParams(params: SchedulerListParams): string {
  const out = new URLSearchParams();
  if (params.health) out.set('health', params.health);
  if (params.search) out.set('q', params.search);
  out.set('limit', String(PAGE_SIZE));
  out.set('offset', String((params.page - 1) * PAGE_SIZE));
  return out.toString();
}

export function listOffset(params: SchedulerListParams): number {
  return (params.page - 1) * PAGE_SIZE;
}

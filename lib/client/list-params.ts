/**
 * The overview's filter, search, label selector, grouping, page, history
 * window and order, as they appear in the page URL
 * (`?selector=team%3Dpayments&group=service&health=stalled&q=retention&page=2&window=24h&order=worst`)
 * and in the API queries (list: `health`, `q`, `selector`, `group`, `limit`, `offset`; strips:
 * `window`, `worst`, `q`, `limit`, `offset`), written by the list query's
 * one spelling and caps (lib/api/list-query.ts). In `order=worst` the health
 * filter applies to the worst health in the window. One parser serves the server render and
 * the browser so both ask for the same page.
 *
 * A selector or a group narrows the list by labels, which the ranked strips
 * cannot read: with either, the order is the list's (by health now).
 *
 * Guarantees: parsing never throws; unknown health values and bad page numbers
 * fall back to "all" and page 1, a malformed selector or group key to none
 * (`rejectedSelector` says what the link asked for and why it was not applied) (the server clamps again: docs/design.md, invariant 11).
 */
import type { SchedulerListResponse } from '@/lib/api/types';
import { labelKeyProblem } from '@/lib/limits/labels';
import { parseSelector, SELECTOR_MAX_LENGTH, type Selector } from '@/lib/limits/selector';
import { HEALTH_SEVERITY, isStripWindow, type Health, type StripWindow } from '@/lib/status';
import { LIST_LIMIT_DEFAULT, listQueryParams, NAME_QUERY_MAX } from '@/lib/api/list-query';

/** The overview's page: the list's default page size (lib/api/list-query.ts). */
export const PAGE_SIZE = LIST_LIMIT_DEFAULT;

export interface SchedulerListParams {
  health: Health | null;
  /** Case-insensitive substring of the scheduler name; '' = no search. */
  search: string;
  /** A well-formed label selector (lib/limits/selector.ts) as written; '' = any labels. */
  selector: string;
  /** A label key to group the rows by; '' = not grouped. */
  group: string;
  /** 1-based. */
  page: number;
  /** The strips' window. */
  window: StripWindow;
  /** Rows by health now (the list's order) or by worst health in the window. */
  order: ListOrder;
}

export type ListOrder = 'now' | 'worst';

export const DEFAULT_LIST_PARAMS: SchedulerListParams = { health: null, search: '', selector: '', group: '', page: 1, window: '1h', order: 'now' };

type RawParams = Record<string, string | string[] | undefined> | URLSearchParams;

function first(raw: RawParams, key: string): string | undefined {
  if (raw instanceof URLSearchParams) return raw.get(key) ?? undefined;
  const value = raw[key];
  return Array.isArray(value) ? value[0] : value;
}

function isHealth(value: string | undefined): value is Health {
  return value !== undefined && (HEALTH_SEVERITY as readonly string[]).includes(value);
}

/** The parser's message for a selector, or null when it is well-formed (blank is: it selects everything). */
export function selectorProblem(text: string): string | null {
  const parsed = parseSelector(text);
  return parsed.ok ? null : parsed.message;
}

/** The parser's message for a group key, or null when it is a label key or blank (not grouped). */
export function groupProblem(key: string): string | null {
  const problem = key.trim() === '' ? null : labelKeyProblem(key.trim());
  return problem === null ? null : `group: ${problem}`;
}

/** The counts the page summarises (filter buttons, tab title): a team's view counts its own schedulers, else the fleet. */
export function summaryCounts(list: Pick<SchedulerListResponse, 'counts' | 'matched'>, params: SchedulerListParams): Record<Health, number> {
  return params.selector === '' ? list.counts : list.matched;
}

/** The selector of parsed params (checked by parseListParams), for a direct read; undefined: any labels. */
export function selectorOf(text: string): Selector | undefined {
  const parsed = parseSelector(text);
  return parsed.ok && parsed.selector.length > 0 ? parsed.selector : undefined;
}

/** Whether the rows are narrowed or arranged by labels (then the order is the list's). */
export const byLabels = (params: SchedulerListParams) => params.selector !== '' || params.group !== '';

export function parseListParams(raw: RawParams): SchedulerListParams {
  const health = first(raw, 'health');
  const page = Number.parseInt(first(raw, 'page') ?? '1', 10);
  const window = first(raw, 'window');
  const selector = (first(raw, 'selector') ?? '').trim().slice(0, SELECTOR_MAX_LENGTH);
  const group = (first(raw, 'group') ?? '').trim();
  return {
    window: isStripWindow(window) ? window : '1h',
    order: first(raw, 'order') === 'worst' ? 'worst' : 'now',
    health: isHealth(health) ? health : null,
    search: (first(raw, 'q') ?? '').trim().slice(0, NAME_QUERY_MAX),
    selector: selectorProblem(selector) === null ? selector : '',
    group: groupProblem(group) === null ? group : '',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** What a link asked for and could not be applied: its selector or group text and the parser's message. */
export function rejectedSelector(raw: RawParams): { selector: string; group: string; message: string } | null {
  const selector = (first(raw, 'selector') ?? '').trim();
  const group = (first(raw, 'group') ?? '').trim();
  const message = selectorProblem(selector) ?? groupProblem(group);
  return message === null ? null : { selector, group, message };
}

/** What one overview HTML is for (lib/host/page-cache.ts): its parameters, and a link's rejected selector, which the page shows. */
export function pageKey(raw: RawParams): string {
  const rejected = rejectedSelector(raw);
  const key = pageSearchParams(parseListParams(raw));
  return rejected === null ? key : `${key}#rejected=${JSON.stringify([rejected.selector, rejected.group])}`;
}

/** The page URL's query string (no leading `?`); defaults are left out. */
export function pageSearchParams(params: SchedulerListParams): string {
  const out = new URLSearchParams();
  if (params.health) out.set('health', params.health);
  if (params.selector) out.set('selector', params.selector);
  if (params.group) out.set('group', params.group);
  if (params.search) out.set('q', params.search);
  if (params.page > 1) out.set('page', String(params.page));
  if (params.window !== '1h') out.set('window', params.window);
  if (params.order !== 'now') out.set('order', params.order);
  return out.toString();
}

/** The list API's query string for one page (by health now), or for exactly `names` (a ranked page's rows). */
export function listSearchParams(params: SchedulerListParams, names: readonly string[] | null = null): string {
  if (names !== null) return listQueryParams({ names, limit: PAGE_SIZE }).toString();
  return listQueryParams({
    ...pageQuery(params),
    ...(params.selector ? { selector: params.selector } : {}),
    ...(params.group ? { group: params.group } : {}),
  }).toString();
}

/** The strips API's query: the rows named, or (order=worst) a page ranked by worst health in the window. */
export function stripsSearchParams(params: SchedulerListParams, names: readonly string[] | null): string {
  const window = new URLSearchParams({ window: params.window });
  if (names !== null) return listQueryParams({ names }, window).toString();
  return listQueryParams(pageQuery(params), window, 'worst').toString();
}

/** The page's filter, search and page as a list query. */
function pageQuery(params: SchedulerListParams) {
  return {
    ...(params.health ? { health: [params.health] } : {}),
    ...(params.search ? { q: params.search } : {}),
    limit: PAGE_SIZE,
    offset: listOffset(params),
  };
}

export function listOffset(params: SchedulerListParams): number {
  return (params.page - 1) * PAGE_SIZE;
}

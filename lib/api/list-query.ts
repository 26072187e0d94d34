/**
 * The list query: how a client asks for a page of schedulers (GET
 * /api/v1/schedulers, and the ranked strips of GET /api/v1/strips) — its
 * parameters, their caps and their spelling, in one place. The server parses
 * and clamps with these caps (lib/server/http/params.ts,
 * lib/server/live/list-params.ts), the OpenAPI document describes them
 * (lib/server/http/api-routes.ts), the page writes its API queries with
 * listQueryParams (lib/client/list-params.ts), and `leaseboard status` reads
 * the same list with the same selector syntax.
 *
 * Guarantees: pure, and zod-free (the browser imports it; zod's eval probe
 * would trip the page's CSP). The caps are ceilings the server clamps to;
 * a client that asks for more gets the ceiling, never an error.
 */
import type { Health } from '../status/types';

/** Page size when none is asked for; the overview's page is this size too. */
export const LIST_LIMIT_DEFAULT = 100;
/** Largest page, and the most `name=` values one query may give. */
export const LIST_LIMIT_MAX = 500;
export const LIST_OFFSET_MAX = 1_000_000;
/** Longest name search (`q`). */
export const NAME_QUERY_MAX = 200;

/** A list query as a client writes it; what is absent is not sent. */
export interface ListQuery {
  /** Only these healths (the strips' ranked read: these worst healths in the window). */
  health?: readonly Health[];
  /** Case-insensitive substring of the scheduler name. */
  q?: string;
  /** Exactly these names, in list order. */
  names?: readonly string[];
  /** A label selector (lib/limits/selector.ts), as typed. */
  selector?: string;
  /** Order the rows group by group by this label's value, with a health summary per group. */
  group?: string;
  limit?: number;
  offset?: number;
}

/**
 * The query in the API's spelling, appended to `into` (the strips read puts its window first):
 * `health` (as `healthParam`: the strips read calls it `worst`), `q`, `name`…, `selector`, `group`, `limit`, `offset`.
 */
export function listQueryParams(query: ListQuery, into = new URLSearchParams(), healthParam: 'health' | 'worst' = 'health'): URLSearchParams {
  if (query.health !== undefined && query.health.length > 0) into.set(healthParam, query.health.join(','));
  if (query.q) into.set('q', query.q);
  for (const name of query.names ?? []) into.append('name', name);
  if (query.selector) into.set('selector', query.selector);
  if (query.group) into.set('group', query.group);
  if (query.limit !== undefined) into.set('limit', String(query.limit));
  if (query.offset !== undefined) into.set('offset', String(query.offset));
  return into;
}

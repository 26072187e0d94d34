/**
 * Parsing of what a client sends to the status reads (docs/design.md,
 * invariant 11): query strings and instants. Names: ../../http/params.ts,
 * shared with the operator actions. The reads below take only what these
 * made (numbers, clamped), never raw text.
 *
 * Guarantees: total — any string (empty, huge, unicode, control characters)
 * yields either a typed value or a 400 naming the field; numbers are clamped
 * to server ceilings, never trusted; nothing here throws.
 */
import { z } from 'zod';
import { HEALTH_SEVERITY, isStripWindow, STRIP_WINDOWS } from '../../status';
import { checkName } from '../../http/params';
import type { StripsQuery } from '../asof/strips';
import type { Health } from '../../status/types';
import type { ListParams } from '../live/list-params';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX, NAME_QUERY_MAX } from '../../api/list-query';
import { badInput, type HttpResult } from './result';
import { labelKeyProblem } from '../../limits/labels';
import { formatSelector, matchesSelector, parseSelector, type Selector } from '../../limits/selector';
import { isReliabilityWindow, RELIABILITY_WINDOWS } from '../../status/reliability';
import type { GroupReliabilityQuery } from '../asof/reliability';
import { RUNS_LIMIT_DEFAULT, RUNS_LIMIT_MAX } from '../asof/runs';
import { UPCOMING_LIMIT_DEFAULT, UPCOMING_LIMIT_MAX } from '../asof/upcoming';

/**
 * No instant before this is ever in the logs (and year-0 dates never reach SQL): refused as invalid
 * input (400). How far back instants are kept is the retention policy's (../asof/horizon.ts, 410).
 */
const EARLIEST_MS = Date.UTC(2000, 0, 1);

const INSTANT_MAX_LENGTH = 40;
const isoInstant = z.iso.datetime({ offset: true });

/** An ISO-8601 instant with `Z` or an offset → epoch ms. */
export function parseInstant(raw: string, field: string): HttpResult<number> {
  const value = raw.trim();
  if (value.length > INSTANT_MAX_LENGTH || !isoInstant.safeParse(value).success) {
    return badInput(`${field}: expected an ISO-8601 instant such as 2026-11-30T16:00:00Z`);
  }
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return badInput(`${field}: not a valid instant`);
  if (ms < EARLIEST_MS) return badInput(`${field}: before 2000-01-01, earlier than any log`);
  return { ok: true, value: ms };
}

/** An optional instant: absent or empty → null. */
export function parseOptionalInstant(raw: string | null | undefined, field: string): HttpResult<number | null> {
  return raw == null || raw === '' ? { ok: true, value: null } : parseInstant(raw, field);
}

/** A non-negative integer query value, clamped to `max`; `fallback` when absent. */
function parseCount(raw: string | null, field: string, fallback: number, min: number, max: number): HttpResult<number> {
  if (raw === null || raw.trim() === '') return { ok: true, value: fallback };
  const value = raw.trim();
  if (!/^[+-]?\d{1,400}$/.test(value)) return badInput(`${field}: expected an integer`);
  const n = Number(value);
  return { ok: true, value: Math.min(max, Math.max(min, n)) };
}

/** A comma list of healths (absent or empty: none). */
function parseHealths(raw: string | null, field: string): HttpResult<Health[]> {
  const health: Health[] = [];
  if (raw !== null && raw.trim() !== '') {
    for (const part of raw.split(',').slice(0, 20)) {
      const h = part.trim();
      if (h === '') continue;
      if (!(HEALTH_SEVERITY as readonly string[]).includes(h)) return badInput(`${field}: expected a comma list of ${HEALTH_SEVERITY.join(', ')}`);
      health.push(h as Health);
    }
  }
  return { ok: true, value: health };
}

/** Repeated `name=` values: each a valid scheduler name, at most LIST_LIMIT_MAX (null: none given). */
function parseNames(query: URLSearchParams): HttpResult<string[] | null> {
  const raw = query.getAll('name');
  if (raw.length === 0) return { ok: true, value: null };
  if (raw.length > LIST_LIMIT_MAX) return badInput(`name: at most ${LIST_LIMIT_MAX} names`);
  const names: string[] = [];
  for (const r of raw) {
    const name = checkName(r);
    if (!name.ok) return badInput(`name: ${name.error.message}`);
    names.push(name.value);
  }
  return { ok: true, value: names };
}

/** A page of a name-filtered read: `q` (≤ NAME_QUERY_MAX), `limit` and `offset` clamped. */
function parsePage(query: URLSearchParams): HttpResult<{ q: string | null; limit: number; offset: number }> {
  const q = query.get('q');
  if (q !== null && q.length > NAME_QUERY_MAX) return badInput(`q: longer than ${NAME_QUERY_MAX} characters`);
  const limit = parseCount(query.get('limit'), 'limit', LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX);
  if (!limit.ok) return limit;
  const offset = parseCount(query.get('offset'), 'offset', 0, 0, LIST_OFFSET_MAX);
  if (!offset.ok) return offset;
  return { ok: true, value: { q, limit: limit.value, offset: offset.value } };
}

/** `selector=` (lib/limits/selector.ts), given at most once; absent or blank: any labels. */
function parseSelectorParam(query: URLSearchParams): HttpResult<Selector | null> {
  const raw = query.getAll('selector');
  if (raw.length > 1) return badInput('selector: give one selector; join requirements with "," (AND)');
  if (raw.length === 0) return { ok: true, value: null };
  const parsed = parseSelector(raw[0]!);
  if (!parsed.ok) return badInput(parsed.message);
  return { ok: true, value: parsed.selector.length === 0 ? null : parsed.selector };
}

/** `group=` a label key (lib/limits/labels.ts) to group by; absent or blank: not grouped. */
function parseGroupParam(query: URLSearchParams): HttpResult<string | null> {
  const raw = query.get('group')?.trim() ?? '';
  if (raw === '') return { ok: true, value: null };
  const problem = labelKeyProblem(raw);
  return problem === null ? { ok: true, value: raw } : badInput(`group: ${problem}`);
}

/** GET /api/v1/schedulers query → ListParams. */
export function parseListQuery(query: URLSearchParams): HttpResult<ListParams> {
  const health = parseHealths(query.get('health'), 'health');
  if (!health.ok) return health;
  const names = parseNames(query);
  if (!names.ok) return names;
  const page = parsePage(query);
  if (!page.ok) return page;
  const selector = parseSelectorParam(query);
  if (!selector.ok) return selector;
  const group = parseGroupParam(query);
  if (!group.ok) return group;
  const { q, limit, offset } = page.value;
  return {
    ok: true,
    value: {
      health: health.value,
      q: q ?? undefined,
      limit,
      offset,
      ...(names.value === null ? {} : { names: names.value }),
      ...(selector.value === null ? {} : { selector: selector.value }),
      ...(group.value === null ? {} : { group: group.value }),
    },
  };
}

/** GET /api/v1/strips query → StripsQuery: `window` (default 1h), then `name=`… or the ranked read's `q`, `worst`, `limit`, `offset`. */
export function parseStripsQuery(query: URLSearchParams): HttpResult<StripsQuery> {
  const window = query.get('window') ?? '1h';
  if (!isStripWindow(window)) return badInput(`window: expected one of ${STRIP_WINDOWS.join(', ')}`);
  const names = parseNames(query);
  if (!names.ok) return names;
  if (names.value !== null) return { ok: true, value: { window, names: names.value } };
  const worst = parseHealths(query.get('worst'), 'worst');
  if (!worst.ok) return worst;
  const page = parsePage(query);
  if (!page.ok) return page;
  const { q, limit, offset } = page.value;
  const needle = q?.trim().toLowerCase() ?? '';
  return {
    ok: true,
    value: { window, names: null, q: needle === '' ? null : needle, worst: worst.value.length === 0 ? null : new Set(worst.value), limit, offset },
  };
}

/** `window=` of a reliability report: 24h (default), 7d or 30d; anything else is refused, never widened. */
export function parseReliabilityWindow(query: URLSearchParams): HttpResult<GroupReliabilityQuery['window']> {
  const window = query.get('window') ?? '24h';
  return isReliabilityWindow(window) ? { ok: true, value: window } : badInput(`window: expected one of ${RELIABILITY_WINDOWS.join(', ')}`);
}

/** GET /api/v1/reliability query: `window` and `selector` (absent: every scheduler). */
export function parseGroupReliabilityQuery(query: URLSearchParams): HttpResult<GroupReliabilityQuery> {
  const window = parseReliabilityWindow(query);
  if (!window.ok) return window;
  const selector = parseSelectorParam(query);
  if (!selector.ok) return selector;
  const chosen = selector.value;
  return {
    ok: true,
    value:
      chosen === null
        ? { window: window.value, picks: null, selectorText: '' }
        : { window: window.value, picks: (labels) => matchesSelector(chosen, labels), selectorText: formatSelector(chosen) },
  };
}

/** `format=`: json (default) or csv. */
export function parseExportFormat(query: URLSearchParams): HttpResult<'json' | 'csv'> {
  const format = query.get('format') ?? 'json';
  return format === 'json' || format === 'csv' ? { ok: true, value: format } : badInput('format: expected json or csv');
}

/** `limit=` of a runs read, clamped to [1, RUNS_LIMIT_MAX]. */
export function parseRunsLimit(query: URLSearchParams): HttpResult<number> {
  return parseCount(query.get('limit'), 'limit', RUNS_LIMIT_DEFAULT, 1, RUNS_LIMIT_MAX);
}

/** GET /api/v1/upcoming query: `selector` (absent: every scheduler), as a predicate over labels; `limit`, clamped to [1, UPCOMING_LIMIT_MAX]. */
export function parseUpcomingQuery(query: URLSearchParams): HttpResult<{ picks: GroupReliabilityQuery['picks']; limit: number }> {
  const selector = parseSelectorParam(query);
  if (!selector.ok) return selector;
  const limit = parseCount(query.get('limit'), 'limit', UPCOMING_LIMIT_DEFAULT, 1, UPCOMING_LIMIT_MAX);
  if (!limit.ok) return limit;
  const chosen = selector.value;
  return { ok: true, value: { picks: chosen === null ? null : (labels) => matchesSelector(chosen, labels), limit: limit.value } };
}

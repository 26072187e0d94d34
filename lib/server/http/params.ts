/**
 * Validation of everything a client sends (docs/design.md, invariant 11), shared by the HTTP
 * handlers and the server-side render: query strings, names, instants.
 *
 * Guarantees: total — any string (empty, huge, unicode, control characters)
 * yields either a typed value or a `ServiceError` with status 400; numbers are
 * clamped to server ceilings, never trusted; nothing here throws.
 */
import { z } from 'zod';
import { HEALTH_SEVERITY } from '../../status';
import type { Health } from '../../status/types';
import { LIST_LIMIT_MAX, LIST_OFFSET_MAX, NAME_QUERY_MAX } from '../live/list-params';
import { errorResult, okResult, type ListParams, type ReadResult } from './result';

/** Longest scheduler name accepted in a path. */
export const NAME_MAX = 200;
/**
 * No instant before this is ever in the logs (and year-0 dates never reach SQL): refused as invalid
 * input (400). How far back instants are kept is the retention policy's (../asof/horizon.ts, 410).
 */
export const EARLIEST_MS = Date.UTC(2000, 0, 1);

const INSTANT_MAX_LENGTH = 40;
const isoInstant = z.iso.datetime({ offset: true });
const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkName(name: unknown): ReadResult<string> {
  if (typeof name !== 'string' || name.length === 0) return errorResult(400, 'invalid_name', 'scheduler name is empty');
  if (name.length > NAME_MAX) return errorResult(400, 'invalid_name', `scheduler name longer than ${NAME_MAX} characters`);
  if (CONTROL.test(name)) return errorResult(400, 'invalid_name', 'scheduler name contains control characters');
  return okResult(name);
}

/** An ISO-8601 instant with `Z` or an offset → epoch ms. */
export function parseInstant(raw: string, field: string): ReadResult<number> {
  const value = raw.trim();
  if (value.length > INSTANT_MAX_LENGTH || !isoInstant.safeParse(value).success) {
    return errorResult(400, 'invalid_parameter', `${field}: expected an ISO-8601 instant such as 2026-11-30T16:00:00Z`);
  }
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return errorResult(400, 'invalid_parameter', `${field}: not a valid instant`);
  if (ms < EARLIEST_MS) return errorResult(400, 'invalid_parameter', `${field}: before 2000-01-01, earlier than any log`);
  return okResult(ms);
}

/** A non-negative integer query value, clamped to `max`; `fallback` when absent. */
function parseCount(raw: string | null, field: string, fallback: number, min: number, max: number): ReadResult<number> {
  if (raw === null || raw.trim() === '') return okResult(fallback);
  const value = raw.trim();
  if (!/^[+-]?\d{1,400}$/.test(value)) return errorResult(400, 'invalid_parameter', `${field}: expected an integer`);
  const n = Number(value);
  return okResult(Math.min(max, Math.max(min, n)));
}

/** GET /api/v1/schedulers query → ListParams. */
export function parseListQuery(query: URLSearchParams): ReadResult<ListParams> {
  const healthRaw = query.get('health');
  const health: Health[] = [];
  if (healthRaw !== null && healthRaw.trim() !== '') {
    for (const part of healthRaw.split(',').slice(0, 20)) {
      const h = part.trim();
      if (h === '') continue;
      if (!(HEALTH_SEVERITY as readonly string[]).includes(h)) {
        return errorResult(400, 'invalid_parameter', `health: expected a comma list of ${HEALTH_SEVERITY.join(', ')}`);
      }
      health.push(h as Health);
    }
  }
  const q = query.get('q');
  if (q !== null && q.length > NAME_QUERY_MAX) return errorResult(400, 'invalid_parameter', `q: longer than ${NAME_QUERY_MAX} characters`);
  const limit = parseCount(query.get('limit'), 'limit', 100, 1, LIST_LIMIT_MAX);
  if (!limit.ok) return limit;
  const offset = parseCount(query.get('offset'), 'offset', 0, 0, LIST_OFFSET_MAX);
  if (!offset.ok) return offset;
  return okResult({ health, q: q ?? undefined, limit: limit.value, offset: offset.value });
}

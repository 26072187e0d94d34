/**
 * What a status read answers, at the bottom of lib/server: the v1 body, or
 * why not — as the reads know it, with no HTTP in it. Only lib/server/http
 * maps these to statuses and bodies (./http/result.ts `httpError`).
 *
 * Guarantees: five kinds, and no other way for a read to fail short of a
 * bug (which throws): `invalid` (the question cannot be answered as asked:
 * `at` in the future, an inverted or too long span), `not_found` (no
 * scheduler by that name), `outside_retention` (older than the history kept,
 * with the oldest instant kept and the retention), `unreadable` (the store
 * could not be read in time) and `busy` (too many heavy reads at once, with
 * when to try again). `message` is a short sentence for humans — never a
 * stack trace, never SQL text.
 */
import type { RetentionRefusal } from '../../api/types';

export type ReadError =
  | { kind: 'invalid'; code: 'invalid_span' | 'at_in_future' | 'range_too_long'; message: string }
  | { kind: 'not_found'; message: string }
  | { kind: 'outside_retention'; message: string; retention: RetentionRefusal }
  | { kind: 'unreadable'; message: string }
  | { kind: 'busy'; message: string; retryAfterS: number };

export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: ReadError };

export const okResult = <T>(value: T): ReadResult<T> => ({ ok: true, value });

export const failed = <T>(error: ReadError): ReadResult<T> => ({ ok: false, error });

export const UNKNOWN_SCHEDULER: ReadError = { kind: 'not_found', message: 'no scheduler with that name' };

export const HEAVY_BUSY: ReadError = { kind: 'busy', message: 'too many detail and history reads at once; retry in a second', retryAfterS: 1 };

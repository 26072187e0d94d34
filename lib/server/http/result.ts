/**
 * Read results mapped to HTTP: the one place a read's outcome
 * (../domain/result.ts) becomes a status and an error code. The route
 * handlers (./handlers.ts) and the dashboard's server-side render
 * (../index.ts) both answer through it, so a page and the API never
 * disagree about what an outcome means.
 *
 * Guarantees: invalid → 400 (its own code), not_found → 404
 * `unknown_scheduler`, outside_retention → 410 with `retention`,
 * unreadable → 503 `store_unreadable`, busy → 503 `busy` with Retry-After;
 * bad input caught by the parsers (./params.ts, ../../http/params.ts) → 400.
 * A 429 comes only from the per-client gate (./heavy-gate.ts), a 500 only
 * from `guarded` (../../http/respond.ts).
 */
import type { HttpError } from '../../http/respond';
import type { ReadError, ReadResult } from '../domain/result';

/** An error answer of the status API (the shape ../../http/respond.ts sends). */
export type ServiceError = HttpError;

/** A read's answer as the API gives it: the body, or the error to send. */
export type HttpResult<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export const badInput = <T>(message: string): HttpResult<T> => ({ ok: false, error: { status: 400, code: 'invalid_parameter', message } });

export function httpError(error: ReadError): ServiceError {
  switch (error.kind) {
    case 'invalid':
      return { status: 400, code: error.code, message: error.message };
    case 'not_found':
      return { status: 404, code: 'unknown_scheduler', message: error.message };
    case 'outside_retention':
      return { status: 410, code: 'outside_retention', message: error.message, retention: error.retention };
    case 'unreadable':
      return { status: 503, code: 'store_unreadable', message: error.message };
    case 'busy':
      return { status: 503, code: 'busy', message: error.message, retryAfterS: error.retryAfterS };
    default: {
      const unreachable: never = error;
      throw new Error(`unexpected read error ${JSON.stringify(unreachable)}`);
    }
  }
}

export function httpResult<T>(result: ReadResult<T>): HttpResult<T> {
  return result.ok ? result : { ok: false, error: httpError(result.error) };
}

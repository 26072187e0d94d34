/**
 * Typed outcomes of the status service's reads, shared by the route handlers
 * and the dashboard's server-side render.
 *
 * Guarantees: a read either yields the v1 response body or a `ServiceError`
 * whose `status` is 400 (bad input), 404 (unknown scheduler), 410 (an instant
 * older than the history kept, with `retention`) or 503 (store unreadable);
 * `message` is a short sentence for humans — never a stack trace,
 * never SQL text.
 */
import type { ErrorCode } from '../../api/types';
import type { HttpError } from '../../http/respond';
import type { Health } from '../../status/types';

/** The error codes of the contract (lib/api/schemas.ts). */
export type ServiceErrorCode = ErrorCode;

export type ServiceError = HttpError;

export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export const okResult = <T>(value: T): ReadResult<T> => ({ ok: true, value });
export const errorResult = <T>(status: ServiceError['status'], code: ServiceErrorCode, message: string): ReadResult<T> => ({
  ok: false,
  error: { status, code, message },
});

/** Query of GET /api/v1/schedulers after validation (numbers already clamped). */
export interface ListParams {
  /** Only these healths (empty or absent: all). */
  health?: readonly Health[];
  /** Case-insensitive substring of the scheduler name. */
  q?: string;
  /** Page size; clamped to [1, 500], default 100. */
  limit?: number;
  /** Clamped to [0, 1,000,000], default 0. */
  offset?: number;
}

/**
 * Client-side deadline for store reads (the one deadline rule,
 * lib/lease/deadline.ts, with the status service's error): the answer comes
 * back within `ms` whatever the database or the network does (a server that
 * accepts and never answers, a dropped route). Paired with the pool's
 * `statement_timeout` and connect timeout, which free the connection on the
 * server and client side.
 *
 * Guarantees: the returned promise settles within `ms` (plus event-loop
 * latency); the timer is cleared when the work settles first, so nothing
 * lingers. A late result of the abandoned work is ignored, a late rejection
 * is swallowed (never an unhandled rejection).
 * Non-guarantees: the abandoned work is not cancelled here.
 */
import { withDeadline } from '../../lease';
import { failed, type ReadResult } from '../domain/result';

/** The store could not be read: refused, timed out or failed. `cause` kept. */
export class StoreUnreadableError extends Error {
  constructor(
    readonly reason: 'timeout' | 'error',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`status store: ${message}`, options);
    this.name = 'StoreUnreadableError';
  }
}

/** `work`'s result within `ms` (../../lease/deadline.ts), else `StoreUnreadableError('timeout')`; any failure of `work` is `StoreUnreadableError('error')`, its cause kept. */
export function readWithin<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  const failing = work.catch((error: unknown) => {
    throw error instanceof StoreUnreadableError ? error : new StoreUnreadableError('error', `${what} failed: ${describe(error)}`, { cause: error });
  });
  return withDeadline(failing, ms, () => {
    throw new StoreUnreadableError('timeout', `${what} took longer than ${ms} ms`);
  });
}

/** A short, safe description of a database error: its code or class, never SQL text or a connection string. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (/timeout/i.test(error.message)) return 'timeout';
  if (/terminated|ended|closed/i.test(error.message)) return 'connection closed';
  return error.name;
}

/** A read's answer when the store could not be read (`unreadable`); any other error is a bug and is thrown again. */
export function unreadableResult<T>(error: unknown): ReadResult<T> {
  if (!(error instanceof StoreUnreadableError)) throw error;
  return failed({ kind: 'unreadable', message: error.reason === 'timeout' ? 'the status store did not answer in time' : 'the status store could not be read' });
}

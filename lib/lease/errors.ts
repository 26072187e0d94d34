/** Typed lease errors: a `lease:` prefix, the operation, and the cause kept. */
import { isCommitOutcomeUnknown } from '../../db/node-client';

export class LeaseStoreError extends Error {
  constructor(
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`lease: ${operation}: ${message}`, options);
    this.name = 'LeaseStoreError';
  }
}

/** Codes of a connection that was never made: nothing was sent. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres's words for a connection attempt that ran out of time (pg-pool's checkout and connect, pg's connect). */
const CONNECT_TIMED_OUT = /timeout exceeded when trying to connect|due to connection timeout|^timeout expired$/i;

/**
 * True for errors whose outcome at the server is unknown: the statement may
 * have committed. A client-side deadline (the answer never came), a
 * connection lost or a server shutting down mid-statement, a cancelled
 * statement, and a commit whose wait for a synchronous standby was cancelled
 * (committed on the primary, perhaps not on the standby: db/node-client.ts).
 * The caller suspects itself; everyone else sees the row only if it committed,
 * and then treats it as given until it expires.
 * Known failures, never unknown: a connection refused or never made (a
 * name not resolved, a host unreachable, a connect that timed out), or no
 * node that accepts writes (db/node-finder.ts) — nothing was sent.
 */
export function isUnknownOutcome(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (isCommitOutcomeUnknown(error)) return true;
  const code = (error as { code?: string }).code;
  if ((code !== undefined && NEVER_CONNECTED.has(code)) || CONNECT_TIMED_OUT.test(error.message)) return false;
  return (
    /timeout|terminated|Connection terminated|ECONNRESET|EPIPE/i.test(error.message) ||
    code === '57014' /* query_canceled (statement_timeout) */ ||
    code === 'ECONNRESET' ||
    code === '57P01' /* admin_shutdown */
  );
}

/** Typed lease errors: a `lease:` prefix, the operation, and the cause kept. */
import { isCommitOutcomeUnknown, metWhileConnecting } from '../../db/node-client';
import { NoNodeError } from '../../db/node-finder';

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
/** node-postgres refuses, before sending anything, a statement on a client that has already ended or broken. */
const NOT_QUERYABLE = /is not queryable/i;

/**
 * What the server may have done with a statement that failed:
 * - `not_sent` — nothing reached it: a connection refused or never made (a
 *   name not resolved, a host unreachable, a connect that timed out), a
 *   connection that ended before its session began (a proxy such as HAProxy
 *   with no server up accepts and closes: pg says "Connection terminated
 *   unexpectedly", the same words as a loss mid-statement, so the client that
 *   connected marks it), no node that accepts writes (db/node-finder.ts), a
 *   client pg refused to send on;
 * - `unknown` — the statement may have committed: a client-side deadline (the
 *   answer never came), a connection lost or a server shutting down
 *   mid-statement, a cancelled statement, and a commit whose wait for a
 *   synchronous standby was cancelled (committed on the primary, perhaps not
 *   on the standby: db/node-client.ts). The caller suspects itself; everyone
 *   else sees the row only if it committed, and then treats it as given
 *   until it expires;
 * - `failed` — the server answered with an error: nothing committed.
 */
export type StatementOutcome = 'not_sent' | 'unknown' | 'failed';

export function statementOutcome(error: unknown): StatementOutcome {
  if (!(error instanceof Error)) return 'failed';
  if (isCommitOutcomeUnknown(error)) return 'unknown';
  const code = (error as { code?: string }).code;
  if (
    metWhileConnecting(error) ||
    error instanceof NoNodeError ||
    (code !== undefined && NEVER_CONNECTED.has(code)) ||
    CONNECT_TIMED_OUT.test(error.message) ||
    NOT_QUERYABLE.test(error.message)
  )
    return 'not_sent';
  const unknown =
    /timeout|terminated|Connection terminated|ECONNRESET|EPIPE/i.test(error.message) ||
    code === '57014' /* query_canceled (statement_timeout) */ ||
    code === 'ECONNRESET' ||
    code === '57P01'; /* admin_shutdown */
  return unknown ? 'unknown' : 'failed';
}

/** True for errors whose outcome at the server is unknown (`statementOutcome` says `unknown`): the statement may have committed. */
export function isUnknownOutcome(error: unknown): boolean {
  return statementOutcome(error) === 'unknown';
}

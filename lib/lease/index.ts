/**
 * The lease authority's one public door (lint: nothing outside lib/lease
 * imports another of its modules). Five things, each guaranteed in its own
 * module:
 *
 * - the authority (./authority.ts): acquire, renew (one lease or many in one
 *   statement), release and read — each ONE conditional statement decided on
 *   the database clock; what it does NOT guarantee: that only one process
 *   acts as leader (a paused holder wakes up believing it leads);
 * - the fence (./fence.ts) and `writeFenced` (./fenced-write.ts): the epoch
 *   checked by the database in the caller's own write statement, so a stale
 *   holder's writes are refused and logged;
 * - configuration (./config.ts): lease names and timings, validated where
 *   they are built — `acquire` takes only terms `leaseTerms`/`leaseConfig`
 *   made, and the database holds the ttl to the same range;
 * - errors (./errors.ts): the typed store error and what a failed statement
 *   may have done (`statementOutcome`: never sent, outcome unknown, failed);
 *   deadlines (./deadline.ts): how long to wait for an answer before its
 *   outcome is unknown;
 * - the operator's intent (./intent.ts), instance tokens (./token.ts) and the
 *   occurrence key in TypeScript and SQL (./occurrence-key.ts).
 *
 * Clock: none of its own; every decision is the database's `clock_timestamp()`.
 */
export { LeaseAuthority, RENEW_MANY_MAX } from './authority';
export type { AcquireResult, Grant, LeaseRecord, ReleaseResult, RenewResult } from './authority';
export { DEFAULT_LEASE_TIMING, LeaseConfigError, leaseConfig, leaseNameSchema, leaseTerms, TTL_CEILING_MS, TTL_FLOOR_MS } from './config';
export type { LeaseConfig, LeaseConfigInput, LeaseTerms } from './config';
export { timerSleep, withDeadline } from './deadline';
export type { Sleep } from './deadline';
export { isUnknownOutcome, LeaseStoreError, statementOutcome, type StatementOutcome } from './errors';
export { FENCE_MISSING, FENCE_REFUSED, fenceFor, logRejection } from './fence';
export type { Fence, Rejection, RejectionReason } from './fence';
export { writeFenced } from './fenced-write';
export type { FencedResult, Written } from './fenced-write';
export { fencedWrites } from './fenced-statements';
export type { FencedStatement, FencedTable, FencedWrites, OnConflict, Returned, RowOf, Selection, SetOf, Value } from './fenced-statements';
export { changeIntent, IntentError, intentChangeSchema, readIntent, setIntent } from './intent';
export type { Intent, IntentChange, IntentChangeResult } from './intent';
export { changeIntentBySelector, type BulkIntentChange, type BulkIntentResult } from './bulk-intent';
export { occurrenceKey, occurrenceKeySql } from './occurrence-key';
export { INSTANCE_TOKEN_PATTERN, LABEL_PATTERN, newInstanceToken } from './token';

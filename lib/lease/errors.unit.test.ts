// statementOutcome: which failures leave a write's outcome unknown (it may have committed), which never
// reached a server (nothing was sent) and which the server answered, for the error shapes node-postgres,
// pg-pool and Node's net produce (./errors.int.test.ts captures them from real failures).
import { describe, expect, it } from 'vitest';
import { CommitOutcomeUnknownError } from '../../db/node-client';
import { NoNodeError } from '../../db/node-finder';
import { isUnknownOutcome, statementOutcome } from './errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('statementOutcome', () => {
  it.each([
    ['a commit whose synchronous-standby wait was cancelled', new CommitOutcomeUnknownError('canceling wait for synchronous replication')],
    ['statement_timeout (57014)', withCode('canceling statement due to statement timeout', '57014')],
    ['the server shutting down mid-statement (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['the connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ['the client-side query deadline', new Error('Query read timeout')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a broken pipe', new Error('write EPIPE')],
  ])('unknown: %s', (_why, error) => {
    expect(statementOutcome(error)).toBe('unknown');
    expect(isUnknownOutcome(error)).toBe(true);
  });

  it.each([
    ['a refused connection (ECONNREFUSED)', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a refused connection on every address (AggregateError)', Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' })],
    ['a host name not resolved', withCode('getaddrinfo ENOTFOUND db.invalid', 'ENOTFOUND')],
    ['a host unreachable', withCode('connect EHOSTUNREACH 10.0.0.1:5432', 'EHOSTUNREACH')],
    ["pg-pool's connect timeout", new Error('Connection terminated due to connection timeout')],
    ["pg-pool's checkout timeout", new Error('timeout exceeded when trying to connect')],
    ["pg's connect timeout", new Error('timeout expired')],
    ['no node that accepts writes', new NoNodeError('read-write', 2)],
    ['a client pg will not send on', new Error('Client has encountered a connection error and is not queryable')],
  ])('not sent: %s', (_why, error) => {
    expect(statementOutcome(error)).toBe('not_sent');
    expect(isUnknownOutcome(error)).toBe(false);
  });

  it.each([
    ['a constraint the statement broke (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a thrown string', 'timeout'],
    ['undefined', undefined],
  ])('failed (the server answered, or not a connection error): %s', (_why, error) => {
    expect(statementOutcome(error)).toBe('failed');
    expect(isUnknownOutcome(error)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { forSession, forTransaction, heldByLogin, type SessionDefaults, type SessionSettings, TRANSACTION_CONTROL } from './session-settings';

const reader: SessionSettings = { statementTimeoutMs: 2_000, readOnly: true, role: 'leaseboard_reader' };
const writer: SessionSettings = { statementTimeoutMs: 5_000, readOnly: false, role: null };
const login: SessionDefaults = {
  dateStyle: 'ISO, MDY',
  statementTimeoutMs: 2_000,
  idleInTransactionTimeoutMs: 2_000,
  readOnly: true,
  jit: false,
  user: 'leaseboard_reader',
};

// Given the defaults a session starts with, when a pool wants these settings, then they hold (nothing per
// statement) only if every protection is there already.
describe('heldByLogin', () => {
  const cases: [string, SessionDefaults, SessionSettings, boolean][] = [
    ['a reader login with every default', login, reader, true],
    ['a shorter timeout than the pool’s', { ...login, statementTimeoutMs: 1_000 }, reader, true],
    ['a longer timeout', { ...login, statementTimeoutMs: 3_000 }, reader, false],
    ['no timeout', { ...login, statementTimeoutMs: 0 }, reader, false],
    ['no idle-in-transaction timeout', { ...login, idleInTransactionTimeoutMs: 0 }, reader, false],
    ['a longer idle-in-transaction timeout', { ...login, idleInTransactionTimeoutMs: 60_000 }, reader, false],
    ['read-write sessions', { ...login, readOnly: false }, reader, false],
    ['JIT compilation on', { ...login, jit: true }, reader, false],
    ['another role', { ...login, user: 'lb_reader_x' }, reader, false],
    ['another DateStyle', { ...login, dateStyle: 'SQL, DMY' }, reader, false],
    [
      'a writer: any user, read-write, its timeout',
      { dateStyle: 'ISO, DMY', statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 5_000, readOnly: false, jit: false, user: 'postgres' },
      writer,
      true,
    ],
    [
      'a writer on a server default (no timeout)',
      { dateStyle: 'ISO, MDY', statementTimeoutMs: 0, idleInTransactionTimeoutMs: 5_000, readOnly: false, jit: false, user: 'postgres' },
      writer,
      false,
    ],
  ];
  it.each(cases)('%s', (_, defaults, wanted, held) => {
    expect(heldByLogin(defaults, wanted)).toBe(held);
  });
});

describe('the SQL that carries the settings', () => {
  it('for a session, plain SETs; for a transaction, READ ONLY first, then SET LOCALs', () => {
    expect(forSession(reader)).toBe(
      "SET DateStyle = 'ISO, MDY'; SET statement_timeout = 2000; SET idle_in_transaction_session_timeout = 2000; SET jit = off; SET default_transaction_read_only = on; SET ROLE leaseboard_reader",
    );
    expect(forTransaction(reader)).toBe(
      "SET TRANSACTION READ ONLY; SET LOCAL DateStyle = 'ISO, MDY'; SET LOCAL statement_timeout = 2000; SET LOCAL idle_in_transaction_session_timeout = 2000; SET LOCAL jit = off; SET LOCAL ROLE leaseboard_reader",
    );
    expect(forTransaction(writer)).toBe(
      "SET LOCAL DateStyle = 'ISO, MDY'; SET LOCAL statement_timeout = 5000; SET LOCAL idle_in_transaction_session_timeout = 5000; SET LOCAL jit = off",
    );
  });

  it('never wraps a statement that controls the transaction itself', () => {
    for (const text of ['BEGIN', ' begin read only', 'START TRANSACTION', 'COMMIT', 'rollback', 'SAVEPOINT a', 'RELEASE a', 'SET x = 1', 'RESET ALL'])
      expect(TRANSACTION_CONTROL.test(text), text).toBe(true);
    for (const text of ['SELECT 1', 'WITH x AS (SELECT 1) SELECT * FROM x', 'UPDATE leases SET holder = $1', 'settle_me()'])
      expect(TRANSACTION_CONTROL.test(text), text).toBe(false);
  });
});

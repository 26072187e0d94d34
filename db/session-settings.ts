/**
 * What a pool's sessions must hold — ISO DateStyle (node-postgres and our
 * readers parse timestamp text), a statement timeout, an idle-in-transaction
 * timeout as long, JIT compilation off, and for readers read-only
 * transactions acting as a role — and the SQL that carries it, for a whole
 * session or for one transaction (./node-client.ts picks which).
 *
 * Why an idle-in-transaction timeout: a transaction of ours never waits on
 * its client longer than one of its statements may run, but a client stopped
 * inside one (SIGSTOP, a GC pause, a frozen VM) holds its row locks for as
 * long as it is stopped. Behind a pooler every statement is a transaction of
 * three round trips (BEGIN and the settings, the statement, COMMIT): a holder
 * stopped between its renewal and the COMMIT held the lease row, and the next
 * holder's acquisition waited behind it for as long as the pause lasted. The
 * server now ends such a session after the timeout, and its locks with it.
 *
 * Why JIT off: every statement Leaseboard sends is short, but the status
 * read's planner cost passes `jit_above_cost` once a database holds some
 * history, and on a server built with LLVM (Debian's and most packaged
 * PostgreSQL) compiling it took 1.5–2.8 s of a read that runs in
 * milliseconds — past the read's own deadline, so the dashboard answered
 * "unknown" from a healthy store.
 *
 * Why not startup parameters: a pooler such as PgBouncer refuses `options`
 * and `statement_timeout` at startup ("unsupported startup parameter"), and
 * with `ignore_startup_parameters` drops them silently — a read pool that
 * writes, statements without a timeout. Session `SET`s are only safe on a
 * session that is ours alone; through a pooler in transaction mode they would
 * land on a server connection other clients share next, so there each
 * transaction carries its own `SET LOCAL`s — unless the login's own defaults
 * (`ALTER ROLE … SET`) already hold every setting, which costs nothing per
 * statement (`heldByLogin`).
 */
export interface SessionSettings {
  /** Also the idle-in-transaction timeout: no transaction of ours waits on its client longer than a statement runs. */
  statementTimeoutMs: number;
  readOnly: boolean;
  /** Acts as this role (a plain identifier, checked where the pool is built); null: the login's own. */
  role: string | null;
}

const DATE_STYLE = "'ISO, MDY'";

/** One simple-protocol string for a session that is ours alone (run once, at connect). */
export function forSession(settings: SessionSettings): string {
  return [
    `SET DateStyle = ${DATE_STYLE}`,
    `SET statement_timeout = ${settings.statementTimeoutMs}`,
    `SET idle_in_transaction_session_timeout = ${settings.statementTimeoutMs}`,
    'SET jit = off',
    ...(settings.readOnly ? ['SET default_transaction_read_only = on'] : []),
    ...(settings.role !== null ? [`SET ROLE ${settings.role}`] : []),
  ].join('; ');
}

/** One simple-protocol string run right after a BEGIN: every setting ends with the transaction. */
export function forTransaction(settings: SessionSettings): string {
  return [
    // Before any query of the transaction, as PostgreSQL requires.
    ...(settings.readOnly ? ['SET TRANSACTION READ ONLY'] : []),
    `SET LOCAL DateStyle = ${DATE_STYLE}`,
    `SET LOCAL statement_timeout = ${settings.statementTimeoutMs}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${settings.statementTimeoutMs}`,
    'SET LOCAL jit = off',
    ...(settings.role !== null ? [`SET LOCAL ROLE ${settings.role}`] : []),
  ].join('; ');
}

/** What a session starts with, as the login's and the database's defaults made it. */
export interface SessionDefaults {
  dateStyle: string;
  /** 0: none. */
  statementTimeoutMs: number;
  /** 0: none. */
  idleInTransactionTimeoutMs: number;
  readOnly: boolean;
  /** Whether the server may JIT-compile a statement (`jit`). */
  jit: boolean;
  /** current_user: the role a login's `SET role` default makes it act as. */
  user: string;
}

/** True when the session's defaults already give every protection the pool wants: timeouts no longer than its own. */
export function heldByLogin(defaults: SessionDefaults, wanted: SessionSettings): boolean {
  const within = (ms: number) => ms > 0 && ms <= wanted.statementTimeoutMs;
  return (
    defaults.dateStyle.startsWith('ISO') &&
    within(defaults.statementTimeoutMs) &&
    within(defaults.idleInTransactionTimeoutMs) &&
    !defaults.jit &&
    (!wanted.readOnly || defaults.readOnly) &&
    (wanted.role === null || defaults.user === wanted.role)
  );
}

/** Statements that start, end or shape a transaction or session themselves: never wrapped in one of ours. */
export const TRANSACTION_CONTROL = /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE\s+TRANSACTION|SET|RESET|DISCARD)\b/i;

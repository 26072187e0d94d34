/**
 * node-postgres pools for Leaseboard. Every pool names itself in
 * `application_name` (so tests can count its connections in pg_stat_activity)
 * and carries a statement timeout, so a stuck database yields an error, never a
 * hang. Callers own the pool and must `end()` it.
 */
import pg from 'pg';

export interface PoolOptions {
  /** Shown in pg_stat_activity; no hostnames, PIDs or secrets. Default `leaseboard`. */
  applicationName?: string;
  /** Server-side statement timeout in ms. Default 5,000. */
  statementTimeoutMs?: number;
  /** Client-side connect timeout in ms. Default 5,000. */
  connectTimeoutMs?: number;
  /** Maximum connections. Default 10. */
  max?: number;
  /**
   * Sessions start read-only (`default_transaction_read_only`): every write
   * fails. With a `role`, the connection also acts as that role from its first
   * statement (./reader-role.ts; a role that does not exist fails the
   * connection, loudly). Default false.
   */
  readOnly?: boolean | { role: string | null };
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function startupOptions(options: PoolOptions): string {
  // Readers parse timestamp text: pin the output format whatever the server's default.
  const settings = ['DateStyle=ISO,MDY'];
  if (options.readOnly) {
    settings.push('default_transaction_read_only=on');
    const role = options.readOnly === true ? null : options.readOnly.role;
    if (role !== null) {
      if (!ROLE_NAME.test(role)) throw new Error(`pool: reader role must be a plain lower-case identifier, got ${JSON.stringify(role)}`);
      settings.push(`role=${role}`);
    }
  }
  return settings.map((setting) => `-c ${setting}`).join(' ');
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: options.applicationName ?? 'leaseboard',
    options: startupOptions(options),
    statement_timeout: options.statementTimeoutMs ?? 5_000,
    query_timeout: (options.statementTimeoutMs ?? 5_000) + 1_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    max: options.max ?? 10,
    idleTimeoutMillis: 10_000,
  });
  // An idle client's error (server restart, network cut) must not crash the
  // process: the next query on a fresh client reports it to its caller.
  pool.on('error', () => {});
  return pool;
}

/**
 * A pool for read-only steps: its sessions refuse writes (SQLSTATE 25006), and
 * its type has no way to reach a fence. A guard against mistakes, not a
 * security boundary (a session may turn the setting off).
 */
export interface ReadOnlyPool {
  readonly readOnly: true;
  readonly query: pg.Pool['query'];
  end(): Promise<void>;
}

export function createReadOnlyPool(url: string, options: Omit<PoolOptions, 'readOnly'> = {}): ReadOnlyPool {
  const pool = createPool(url, { ...options, readOnly: true });
  return Object.freeze({ readOnly: true as const, query: pool.query.bind(pool) as pg.Pool['query'], end: () => pool.end() });
}

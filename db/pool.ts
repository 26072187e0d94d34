/**
 * node-postgres pools for Leaseboard. Every pool names itself in
 * `application_name` (so tests can count its connections in pg_stat_activity)
 * and carries a statement timeout, so a stuck database yields an error, never a
 * hang. Callers own the pool and must `end()` it.
 *
 * The connection string may list several nodes as libpq does
 * (`postgres://h1:5432,h2:5432/db?target_session_attrs=read-write`, ./url.ts).
 * A writing pool connects only to a node that accepts writes, whatever the
 * string asks; a read-only pool follows `target_session_attrs` (its sessions
 * are read-only themselves, so `read-write` there means the primary). Each
 * pool finds its node itself and looks again, with backoff, when a connection
 * finds it unfit (./node-finder.ts, ./node-client.ts).
 *
 * Behind a pooler (PgBouncer, transaction or session mode, a stock
 * configuration): no startup parameter but `application_name`, which poolers
 * pass on; the settings travel with each transaction there (./node-client.ts).
 *
 * Commit waits: a statement's wait for a synchronous standby is never ended
 * by a cancel of ours. PostgreSQL does not let `statement_timeout` end it; the
 * client-side `query_timeout` gives up on the answer (an unknown outcome) and
 * the pool then closes that connection. A writer's statement answered with a
 * warning (a commit wait someone else cancelled) fails as an unknown outcome.
 */
import pg from 'pg';
import { NodeClient, type NodeClientConfig } from './node-client';
import { NodeFinder } from './node-finder';
import type { SessionSettings } from './session-settings';
import { type DatabaseNode, parseDatabaseUrl, type TargetSessionAttrs } from './url';

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
   * Every transaction is read-only (`default_transaction_read_only`, or
   * `SET TRANSACTION READ ONLY` behind a pooler): every write fails. With a
   * `role`, statements also act as that role (./reader-role.ts; a role that
   * does not exist fails the connection, or behind a pooler each statement,
   * loudly). Default false.
   */
  readOnly?: boolean | { role: string | null };
  /** Told of every change of the node the pool uses (null: looking for one). Ids only, never hosts. */
  onNodeChange?: (node: DatabaseNode | null) => void;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function sessionSettings(options: PoolOptions): SessionSettings {
  const role = options.readOnly && options.readOnly !== true ? options.readOnly.role : null;
  if (role !== null && !ROLE_NAME.test(role)) throw new Error(`pool: reader role must be a plain lower-case identifier, got ${JSON.stringify(role)}`);
  return { statementTimeoutMs: options.statementTimeoutMs ?? 5_000, readOnly: Boolean(options.readOnly), role };
}

/** What a pool's node must be: writers always a node that accepts writes; readers as the string asks. */
function requirementOf(target: TargetSessionAttrs, readOnly: boolean): TargetSessionAttrs {
  if (!readOnly) return 'read-write';
  // A read-only session never is read-write itself: the string's wish is the primary.
  return target === 'read-write' ? 'primary' : target === 'read-only' ? 'any' : target;
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const { nodes, target } = parseDatabaseUrl(url);
  const readOnly = Boolean(options.readOnly);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const finder = new NodeFinder(nodes, requirementOf(target, readOnly), { probeTimeoutMs: Math.min(2_000, connectTimeoutMs), onChange: options.onNodeChange });
  const config: NodeClientConfig & pg.PoolConfig = {
    Client: NodeClient as unknown as typeof pg.Client,
    finder,
    vouchCommits: !readOnly,
    // Not as startup parameters (`options`, `statement_timeout`): a pooler refuses or drops them (./session-settings.ts).
    settings: sessionSettings(options),
    connectionString: nodes[0]!.url,
    application_name: options.applicationName ?? 'leaseboard',
    query_timeout: (options.statementTimeoutMs ?? 5_000) + 1_000,
    connectionTimeoutMillis: connectTimeoutMs,
    max: options.max ?? 10,
    idleTimeoutMillis: 10_000,
  };
  const pool = new pg.Pool(config);
  // An idle client's error (server restart, network cut) must not crash the
  // process: the next query on a fresh client reports it to its caller.
  pool.on('error', () => {});
  // A client whose node proved unfit (read-only, shutting down) is not reused.
  pool.on('release', (error, client) => {
    if (!error && (client as unknown as NodeClient).retired) void client.end();
  });
  return pool;
}

/** One writing connection (the migrator's), to a node that accepts writes. */
export async function connectWriter(url: string, applicationName: string): Promise<pg.Client> {
  const { nodes } = parseDatabaseUrl(url);
  const client = new NodeClient({
    finder: new NodeFinder(nodes, 'read-write'),
    vouchCommits: true,
    connectionString: nodes[0]!.url,
    application_name: applicationName,
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  return client;
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

/**
 * A node-postgres Client that connects to the node its NodeFinder names and
 * checks, on its own connection, that the node meets the pool's requirement
 * (pg.Pool's `Client` extension point; ./pool.ts builds the pools).
 *
 * Guarantees
 * - It is connected only to a node that met the requirement when the session
 *   began (PostgreSQL 14+ reports `in_hot_standby` and
 *   `default_transaction_read_only` at startup; older servers are asked). A
 *   writer is never connected to a node in recovery or a read-only node.
 * - When its node turns out unfit — the connection is refused or lost, the
 *   server shuts down, a statement is refused as read-only (SQLSTATE 25006) —
 *   it tells the finder, which looks again before the next connection, and a
 *   retired client is dropped by the pool instead of being reused.
 * - An error met while connecting (no node found, refused, closed before the
 *   session began, the session check failed) is marked (`metWhileConnecting`):
 *   none of this client's statements was sent, which a proxy that accepts and
 *   then closes would otherwise leave indistinguishable from a loss
 *   mid-statement (../lib/lease/errors.ts).
 * - With `vouchCommits`, a statement the server answered with a WARNING
 *   (SQLSTATE class 01) fails with CommitOutcomeUnknownError instead of
 *   succeeding: that is how PostgreSQL answers a commit whose wait for a
 *   synchronous standby was cancelled — committed here, perhaps not on the
 *   standby, so it may vanish at a failover (the text is translated; the
 *   class is not). Our statements raise no other warning.
 * - With `settings` (./session-settings.ts), every statement runs under them.
 *   On a session that is ours alone they are set once, at connect. Where a
 *   pooler or a proxy may stand between us and the server (the server sees
 *   another client port than our socket's, or another server port than the
 *   one we dialled, or we came through a Unix socket), the login's own
 *   defaults may hold them all (`ALTER ROLE … SET`: nothing per statement);
 *   otherwise each transaction carries them: an explicit BEGIN is followed
 *   by its `SET LOCAL`s, and a lone statement runs in a transaction of its
 *   own (BEGIN; SET LOCAL …; the statement; COMMIT — two more round trips,
 *   the price of a pooler). Statements of one client then run one after
 *   another, each with its own.
 * Not guaranteed: that the node is still fit when a statement arrives — a
 * standby promoted, a primary fenced read-only meanwhile: the statement is
 * refused (25006) and the next connection goes elsewhere. A connection broken
 * mid-statement leaves that statement's outcome unknown, as always. Behind a
 * pooler in transaction mode, that the login's defaults still hold later: a
 * session `SET` another client of the pooler sends (Leaseboard sends none)
 * stays on the server connection it ran on.
 */
import type net from 'node:net';
import pg from 'pg';
import { meets, type NodeFinder, type NodeState } from './node-finder';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { forSession, forTransaction, heldByLogin, type SessionDefaults, type SessionSettings, TRANSACTION_CONTROL } from './session-settings';
import type { DatabaseNode } from './url';

export class CommitOutcomeUnknownError extends Error {
  readonly code = 'LEASEBOARD_COMMIT_UNKNOWN';
  constructor(readonly warning: string) {
    super(`database: the server warned while committing (${warning}); the outcome is unknown`);
    this.name = 'CommitOutcomeUnknownError';
  }
}

export function isCommitOutcomeUnknown(error: unknown): boolean {
  return error instanceof CommitOutcomeUnknownError;
}

/** Errors a client met before its session began: none of its statements was sent. */
const whileConnecting = new WeakSet<object>();

/** True for an error a NodeClient met while connecting (so no statement of it reached a server). */
export function metWhileConnecting(error: unknown): boolean {
  return typeof error === 'object' && error !== null && whileConnecting.has(error);
}

/** Errors after which this node is no place for the pool's sessions. */
const UNFIT = new Set(['25006' /* read_only_sql_transaction */, '57P01' /* admin_shutdown */, '57P02' /* crash_shutdown */, '57P03' /* cannot_connect_now */]);

export interface NodeClientConfig extends pg.ClientConfig {
  finder: NodeFinder;
  vouchCommits: boolean;
  /** What every statement must run under; none for the migrator's own connection. */
  settings?: SessionSettings;
}

type Callback = (error: Error | null, result?: unknown) => void;
type QueryConfig = string | { text?: string; submit?: unknown };
const SESSION_SQL = `SELECT inet_client_port() AS client, inet_server_port() AS server, current_setting('DateStyle') AS "dateStyle",
  (SELECT setting::int FROM pg_settings WHERE name = 'statement_timeout') AS "statementTimeoutMs",
  (SELECT setting::int FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout') AS "idleInTransactionTimeoutMs",
  current_setting('default_transaction_read_only') = 'on' AS "readOnly", current_setting('jit') = 'on' AS "jit", current_user::text AS "user"`;
const textOf = (config: QueryConfig) => (typeof config === 'string' ? config : (config.text ?? ''));

export class NodeClient extends pg.Client {
  /** The node this client is (or was last) connected to. */
  node: DatabaseNode | null = null;
  /** True once its node proved unfit: the pool ends it instead of reusing it. */
  retired = false;
  private readonly finder: NodeFinder;
  private readonly vouchCommits: boolean;
  private readonly deadlineMs: number;
  private readonly reported = new Map<string, string>();
  private warnings: string[] = [];
  private endedByUs = false;
  private readonly settings: SessionSettings | null;
  /** Set when each transaction must carry the settings (not our session alone): the SQL run after its BEGIN. */
  private carried: string | null = null;
  /** The server's last word on the transaction: I idle, T in one, E in a failed one. */
  private transactionStatus = 'I';
  private queue: Promise<unknown> = Promise.resolve();

  constructor(config: NodeClientConfig) {
    super(config);
    this.finder = config.finder;
    this.vouchCommits = config.vouchCommits;
    this.settings = config.settings ?? null;
    this.connection.on('readyForQuery', (msg: { status: string }) => (this.transactionStatus = msg.status));
    this.deadlineMs = config.connectionTimeoutMillis || 5_000;
    this.connection.on('parameterStatus', (msg: { parameterName: string; parameterValue: string }) => this.reported.set(msg.parameterName, msg.parameterValue));
    this.connection.on('notice', (msg: { code?: string; message?: string }) => {
      if (msg.code?.startsWith('01')) this.warnings.push(msg.message ?? msg.code);
    });
    this.connection.on('errorMessage', (msg: { code?: string }) => {
      if (msg.code && UNFIT.has(msg.code)) this.unfit();
    });
    // On the connection, not the client: this runs before the client reports the loss (and before a pool ends it).
    this.connection.once('end', () => {
      if (!this.endedByUs) this.unfit();
    });
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: (error: Error | null, client?: pg.Client) => void): void;
  override connect(callback?: (error: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
    const connecting = this.connectToNode().then(
      () => this,
      (error: unknown) => {
        if (typeof error === 'object' && error !== null) whileConnecting.add(error);
        throw error;
      },
    );
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(null, client),
      (error: Error) => callback(error),
    );
  }

  override end(): Promise<void>;
  override end(callback: (error: Error) => void): void;
  override end(callback?: (error: Error) => void): Promise<void> | void {
    this.endedByUs = true;
    return callback ? super.end(callback) : super.end();
  }

  // One signature for all of pg's overloads: callback, promise, or a Submittable (passed through).
  override query(...args: unknown[]): never {
    const [config, values, callback] = args as [QueryConfig, unknown, unknown];
    const base = pg.Client.prototype.query as (this: pg.Client, ...a: unknown[]) => unknown;
    if ((!this.vouchCommits && this.carried === null) || (typeof config === 'object' && typeof config?.submit === 'function'))
      return base.apply(this, args) as never;
    const done = (typeof values === 'function' ? values : callback) as Callback | undefined;
    const params = typeof values === 'function' ? undefined : values;
    let running: Promise<unknown>;
    if (this.carried === null) running = this.vouched(config, params);
    else {
      const carried = this.carried;
      running = this.queue.then(() => this.carrying(carried, config, params));
      this.queue = running.catch(() => {});
    }
    if (!done) return running as never;
    running.then(
      (result) => done(null, result),
      (error: Error) => done(error),
    );
    return undefined as never;
  }

  /** One statement; with `vouchCommits`, a warning fails it (see the guarantees). */
  private async vouched(config: QueryConfig, params?: unknown): Promise<unknown> {
    const seen = this.warnings.length;
    const result = await (pg.Client.prototype.query as (this: pg.Client, ...a: unknown[]) => Promise<unknown>).call(this, config, params);
    if (this.vouchCommits && this.warnings.length > seen) throw new CommitOutcomeUnknownError(this.warnings.at(-1)!);
    return result;
  }

  private async carrying(carried: string, config: QueryConfig, params: unknown): Promise<unknown> {
    // Inside the caller's transaction: its BEGIN carried the settings already.
    if (this.transactionStatus !== 'I') return this.vouched(config, params);
    if (TRANSACTION_CONTROL.test(textOf(config))) {
      const result = await this.vouched(config, params);
      if (this.transactionStatus !== 'I') await this.vouched(carried);
      return result;
    }
    await this.vouched(`BEGIN; ${carried}`);
    try {
      const result = await this.vouched(config, params);
      await this.vouched('COMMIT');
      return result;
    } catch (error) {
      if (this.transactionStatus !== 'I') await this.vouched('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  private async connectToNode(): Promise<void> {
    const node = await this.finder.find(Date.now() + this.deadlineMs);
    this.node = node;
    if (node.address) {
      // The client was built before the node was known: point it there (every node shares the rest).
      this.host = node.address.host;
      this.port = node.address.port;
      Object.assign((this as unknown as { connectionParameters: object }).connectionParameters, node.address);
    }
    try {
      await super.connect();
    } catch (error) {
      this.unfit();
      throw error;
    }
    // The session's own checks are not the work of whichever span asked the pool for a connection: run outside
    // any trace (tracing records only statements with a parent), so a traced write shows its own statements only.
    // Until the pool has the client (and listens for its errors), node-postgres would emit a connection lost
    // between these statements with nobody listening — an uncaught exception. Heard here, it fails the next
    // statement, and so the connect.
    const heard = () => {};
    this.on('error', heard);
    try {
      await context.with(ROOT_CONTEXT, () => this.prepareSession(node));
    } finally {
      this.off('error', heard);
    }
  }

  private async prepareSession(node: DatabaseNode): Promise<void> {
    const state = await this.sessionState();
    if (!meets(this.finder.target, state)) {
      this.unfit();
      await this.end().catch(() => {});
      throw new Error(`database: ${node.id} no longer meets target_session_attrs=${this.finder.target}`);
    }
    if (this.settings)
      await this.settle(this.settings).catch(async (error: unknown) => {
        await this.end().catch(() => {});
        throw error;
      });
  }

  /** Sets the session's settings when the session is ours alone; else, unless the login's defaults hold them, every transaction will carry them. */
  private async settle(settings: SessionSettings): Promise<void> {
    const socket = (this.connection as unknown as { stream: net.Socket }).stream;
    const { rows } = await super.query<{ client: number | null; server: number | null } & SessionDefaults>(SESSION_SQL);
    const session = rows[0]!;
    const ours = socket.localPort !== undefined && session.client === socket.localPort && session.server === socket.remotePort;
    if (ours) await super.query(forSession(settings));
    else if (!heldByLogin(session, settings)) this.carried = forTransaction(settings);
  }

  /** True when each transaction carries the pool's settings (a pooler or a proxy between us and the server). */
  get carriesSettings(): boolean {
    return this.carried !== null;
  }

  /** From the startup report (PostgreSQL 14+), else asked. */
  private async sessionState(): Promise<NodeState> {
    const standby = this.reported.get('in_hot_standby');
    const readOnly = this.reported.get('default_transaction_read_only');
    if (standby !== undefined && readOnly !== undefined) return { inRecovery: standby === 'on', readOnly: readOnly === 'on' };
    const { rows } = await super.query<{ r: boolean; o: boolean }>(`SELECT pg_is_in_recovery() AS r, current_setting('transaction_read_only') = 'on' AS o`);
    return { inRecovery: rows[0]!.r, readOnly: rows[0]!.o };
  }

  private unfit(): void {
    this.retired = true;
    if (this.node) this.finder.suspect(this.node);
  }
}

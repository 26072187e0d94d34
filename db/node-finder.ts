/**
 * Which node of a replicated cluster a pool connects to: the first, in the
 * order the connection string lists them, whose state meets the pool's
 * requirement (libpq's `target_session_attrs`; writers always `read-write`).
 *
 * Guarantees
 * - One search at a time per finder: every connection waiting for a node
 *   waits for the same round of probes (one short-lived connection per node).
 * - A round that finds no node is followed by the next only after a backoff
 *   (doubling from `backoffMs.first` to `backoffMs.max`, with jitter), so a
 *   cluster in the middle of a failover is not stormed.
 * - A node found is kept until a connection reports it unfit (`suspect`):
 *   refused, lost, or answering as a node in recovery or read-only.
 * Not guaranteed: that the node is still fit when a connection reaches it —
 * a connection checks again for itself (./node-client.ts).
 */
import pg from 'pg';
import type { DatabaseNode, TargetSessionAttrs } from './url';

/** What a node says of itself: `pg_is_in_recovery()` and the server's `default_transaction_read_only`. */
export interface NodeState {
  inRecovery: boolean;
  readOnly: boolean;
}

/** Whether a node in `state` meets `target`; `prefer-standby` accepts a standby here and anything in its second pass. */
export function meets(target: TargetSessionAttrs, state: NodeState): boolean {
  switch (target) {
    case 'any':
      return true;
    case 'read-write':
      return !state.inRecovery && !state.readOnly;
    case 'read-only':
      return state.inRecovery || state.readOnly;
    case 'primary':
      return !state.inRecovery;
    case 'standby':
    case 'prefer-standby':
      return state.inRecovery;
    default: {
      const unreachable: never = target;
      throw new Error(`unknown target ${String(unreachable)}`);
    }
  }
}

export class NoNodeError extends Error {
  constructor(
    readonly target: TargetSessionAttrs,
    readonly tried: number,
    options?: { cause?: unknown },
  ) {
    // Nothing was sent to any node: a known failure, never an unknown outcome (no "timeout" in the text).
    super(`database: no node of ${tried} meets target_session_attrs=${target} yet`, options);
    this.name = 'NoNodeError';
  }
}

export type ProbeNode = (node: DatabaseNode, timeoutMs: number) => Promise<NodeState>;

/** A short-lived connection to `node` that asks its state. */
const probeNode: ProbeNode = async (node, timeoutMs) => {
  const client = new pg.Client({ connectionString: node.url, connectionTimeoutMillis: timeoutMs, application_name: 'leaseboard-probe' });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ in_recovery: boolean; read_only: boolean }>({
      text: `SELECT pg_is_in_recovery() AS in_recovery, current_setting('default_transaction_read_only') = 'on' AS read_only`,
      query_timeout: timeoutMs,
    } as pg.QueryConfig);
    return { inRecovery: rows[0]!.in_recovery, readOnly: rows[0]!.read_only };
  } finally {
    await client.end().catch(() => {});
  }
};

export interface NodeFinderOptions {
  /** Each probe's connect and query timeout. Default 2,000 ms. */
  probeTimeoutMs?: number;
  backoffMs?: { first: number; max: number };
  probe?: ProbeNode;
  /** Told of every change of the node in use (null: none known). */
  onChange?: (node: DatabaseNode | null) => void;
}

export class NodeFinder {
  private known: DatabaseNode | null = null;
  private search: Promise<DatabaseNode | null> | null = null;
  private failedRounds = 0;
  private nextRoundAt = 0;
  private readonly probe: ProbeNode;

  constructor(
    readonly nodes: readonly DatabaseNode[],
    readonly target: TargetSessionAttrs,
    private readonly options: NodeFinderOptions = {},
  ) {
    if (nodes.length === 0) throw new Error('node finder: no node to find');
    this.probe = options.probe ?? probeNode;
  }

  /** The node in use, if one is known. */
  get current(): DatabaseNode | null {
    return this.known;
  }

  /**
   * The node to connect to: the known one, else the result of the next round
   * of probes — waiting out the backoff, but not past `deadline` (epoch ms).
   * A single node needs no probe: there is no other to choose, and each
   * connection checks its node for itself.
   */
  async find(deadline: number): Promise<DatabaseNode> {
    if (this.known) return this.known;
    if (this.nodes.length === 1) return this.settle(this.nodes[0]!);
    for (;;) {
      const wait = this.nextRoundAt - Date.now();
      if (wait > 0) {
        if (Date.now() + wait > deadline) throw new NoNodeError(this.target, this.nodes.length);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      this.search ??= this.round(Math.max(1, Math.min(this.options.probeTimeoutMs ?? 2_000, deadline - Date.now()))).finally(() => {
        this.search = null;
      });
      const found = await this.search;
      if (found) return found;
      if (Date.now() >= deadline) throw new NoNodeError(this.target, this.nodes.length);
    }
  }

  /** A connection found `node` unfit (refused, lost, read-only, in recovery): look again before the next connection. */
  suspect(node: DatabaseNode): void {
    if (this.known?.id !== node.id) return;
    this.known = null;
    this.options.onChange?.(null);
  }

  private async round(timeoutMs: number): Promise<DatabaseNode | null> {
    const states = new Map<string, NodeState | null>();
    const stateOf = async (node: DatabaseNode) => {
      if (!states.has(node.id)) states.set(node.id, await this.probe(node, timeoutMs).catch(() => null));
      return states.get(node.id)!;
    };
    for (const node of this.nodes) {
      const state = await stateOf(node);
      if (state && meets(this.target, state)) return this.settle(node);
    }
    if (this.target === 'prefer-standby') {
      for (const node of this.nodes) if (await stateOf(node)) return this.settle(node);
    }
    const { first, max } = this.options.backoffMs ?? { first: 100, max: 2_000 };
    this.nextRoundAt = Date.now() + Math.min(max, first * 2 ** this.failedRounds) * (0.75 + Math.random() * 0.5);
    this.failedRounds++;
    return null;
  }

  private settle(node: DatabaseNode): DatabaseNode {
    this.failedRounds = 0;
    this.nextRoundAt = 0;
    if (this.known?.id !== node.id) {
      this.known = node;
      this.options.onChange?.(node);
    }
    return node;
  }
}

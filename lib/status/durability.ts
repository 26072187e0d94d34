/**
 * What protects the authority, judged from what the answering database node
 * says of its replication (docs/design.md, "Replication and failover"): a
 * single node, asynchronous replication, or synchronous replication with N
 * standbys — and whether the standbys' lag is within bounds.
 *
 * Guarantees
 * - Pure: `now` is the database time read in the same statement as the
 *   facts; nothing here reads a clock or does I/O.
 * - Missing evidence is `unknown`, never a mode: the store unreadable, a
 *   standby answering (it cannot see how the primary replicates), or standby
 *   rows whose details are hidden (a role without `pg_read_all_stats` sees a
 *   streaming standby's row with its state NULL: counting it as "no standby"
 *   would claim a single node).
 * - `sync` means commits of the reading session wait for a standby
 *   (`synchronous_standby_names` set and `synchronous_commit` at
 *   `remote_write` or stronger); `synchronous_commit = local | off` is
 *   asynchronous whatever the standbys' `sync_state` says.
 * - Lag is `behind` only when a measured lag is over `maxLagMs` ("older
 *   than" is strict, as everywhere); a lag that cannot be measured is
 *   `unknown`, never `ok`.
 * Not guaranteed: a writer's own `synchronous_commit` (a per-role or
 * per-transaction override) is not the reading session's and is not seen;
 * replication beyond the primary's direct standbys (cascades) is not counted.
 */
import { generationOf } from './epoch';
import { formatDuration } from './format';
import type { IsoTime } from './types';
import { toMs } from './time';

/** A standby further behind than this reads `behind` (ms). */
export const DEFAULT_MAX_STANDBY_LAG_MS = 10_000;

/** The answering node's replication, as one statement read it (db/replication-state.ts). */
export type ReplicationFacts =
  | {
      role: 'primary';
      /** The pool's opaque id for the node (`node-1` …), never a host; null outside a pool. */
      node: string | null;
      generation: number;
      /** Streaming standbys by how the primary treats them; `hidden`: rows whose state the reader may not see. */
      standbys: { synchronous: number; asynchronous: number; hidden: number };
      /** `synchronous_standby_names` is set (its value is not read: it may name hosts). */
      synchronousStandbyNamesSet: boolean;
      /** The reading session's `synchronous_commit`. */
      synchronousCommit: string;
      /** The longest replay lag among the standbys (null: none measured — PostgreSQL clears it once a standby is idle and caught up). */
      standbyReplayLagMs: number | null;
      /** The largest WAL distance to a standby's replay position (null: no visible standby). */
      standbyLagBytes: number | null;
    }
  | {
      role: 'standby';
      node: string | null;
      /** When the last transaction replayed here committed on the primary (null: none replayed since start). */
      lastReplayAt: IsoTime | null;
      /** Everything received has been replayed. */
      caughtUp: boolean;
      /** Its WAL receiver is streaming (null: not visible to the reader). */
      receiving: boolean | null;
    };

export type DurabilityMode = 'single' | 'async' | 'sync' | 'unknown';
type LagState = 'ok' | 'behind' | 'unknown' | 'none';

type DurabilityReasonCode =
  | 'store_unreadable'
  | 'answered_by_standby'
  | 'replication_hidden'
  | 'single_node'
  | 'asynchronous'
  | 'synchronous'
  | 'synchronous_without_standby'
  | 'commit_does_not_wait'
  | 'lag_ok'
  | 'lag_behind'
  | 'lag_unknown';

export interface Durability {
  mode: DurabilityMode;
  /** Standbys commits wait for / do not wait for (null: not known). */
  synchronousStandbys: number | null;
  asynchronousStandbys: number | null;
  /** Which node answered (opaque id) and what it is; null when nothing answered. */
  answeredBy: { node: string | null; role: 'primary' | 'standby' } | null;
  /** The answering primary's failover generation (the epoch's high part); null unless a primary answered. */
  generation: number | null;
  lag: { state: LagState; ms: number | null; bytes: number | null; maxMs: number };
  reasons: { code: DurabilityReasonCode; message: string }[];
}

/** `synchronous_commit` values that make a commit wait for a synchronous standby. */
const WAITING_COMMITS = new Set(['on', 'remote_write', 'remote_apply']);

/**
 * The durability fact: `facts` null when the store (or the replication read)
 * could not be read; `now` the database time of the read.
 */
export function judgeDurability(facts: ReplicationFacts | null, now: IsoTime, maxLagMs: number = DEFAULT_MAX_STANDBY_LAG_MS): Durability {
  if (!(maxLagMs > 0)) throw new RangeError(`maxLagMs must be > 0, got ${maxLagMs}`);
  if (facts === null) {
    return {
      mode: 'unknown',
      synchronousStandbys: null,
      asynchronousStandbys: null,
      answeredBy: null,
      generation: null,
      lag: { state: 'unknown', ms: null, bytes: null, maxMs: maxLagMs },
      reasons: [{ code: 'store_unreadable', message: 'replication could not be read: what protects the authority is unknown' }],
    };
  }
  switch (facts.role) {
    case 'primary':
      return judgePrimary(facts, maxLagMs);
    case 'standby':
      return judgeStandby(facts, now, maxLagMs);
    default: {
      const never: never = facts;
      throw new Error(`unknown role ${JSON.stringify(never)}`);
    }
  }
}

function judgePrimary(facts: Extract<ReplicationFacts, { role: 'primary' }>, maxLagMs: number): Durability {
  const { synchronous, asynchronous, hidden } = facts.standbys;
  const node = nodeName(facts.node);
  const base = { answeredBy: { node: facts.node, role: 'primary' as const }, generation: facts.generation };
  if (hidden > 0) {
    return {
      ...base,
      mode: 'unknown',
      synchronousStandbys: null,
      asynchronousStandbys: null,
      lag: { state: 'unknown', ms: null, bytes: null, maxMs: maxLagMs },
      reasons: [
        {
          code: 'replication_hidden',
          message: `primary ${node} streams to ${hidden} standby${hidden === 1 ? '' : 's'} whose state is hidden from the reader (the owner of leaseboard_replication_state() needs pg_read_all_stats): what protects the authority is unknown`,
        },
      ],
    };
  }
  const reasons: Durability['reasons'] = [];
  const waits = facts.synchronousStandbyNamesSet && WAITING_COMMITS.has(facts.synchronousCommit);
  const streaming = synchronous + asynchronous;
  let mode: DurabilityMode;
  if (waits) {
    mode = 'sync';
    reasons.push(
      synchronous > 0
        ? {
            code: 'synchronous',
            message: `primary ${node}: every commit waits for ${synchronous} synchronous standby${synchronous === 1 ? '' : 's'} (synchronous_commit ${facts.synchronousCommit}): an acknowledged grant survives a failover`,
          }
        : {
            code: 'synchronous_without_standby',
            message: `primary ${node}: commits wait for a synchronous standby and none is streaming: grants and renewals block until one is`,
          },
    );
  } else if (streaming > 0) {
    mode = 'async';
    if (facts.synchronousStandbyNamesSet) {
      reasons.push({
        code: 'commit_does_not_wait',
        message: `synchronous_commit ${facts.synchronousCommit}: commits do not wait for the synchronous standby`,
      });
    }
    reasons.push({
      code: 'asynchronous',
      message: `primary ${node} streams to ${streaming} standby${streaming === 1 ? '' : 's'} asynchronously: epochs never repeat, but the newest grants and fenced writes can be lost at a failover`,
    });
  } else {
    mode = 'single';
    reasons.push({ code: 'single_node', message: `primary ${node} has no streaming standby: the authority is as durable as this one node` });
  }
  const lag = primaryLag(facts, streaming, maxLagMs);
  if (lag.reason) reasons.push(lag.reason);
  return {
    ...base,
    mode,
    synchronousStandbys: synchronous,
    asynchronousStandbys: asynchronous,
    lag: { state: lag.state, ms: lag.ms, bytes: facts.standbyLagBytes, maxMs: maxLagMs },
    reasons,
  };
}

type LagJudgement = { state: LagState; ms: number | null; reason: Durability['reasons'][number] | null };

function primaryLag(facts: Extract<ReplicationFacts, { role: 'primary' }>, streaming: number, maxLagMs: number): LagJudgement {
  if (streaming === 0) return { state: 'none', ms: null, reason: null };
  // PostgreSQL clears replay_lag once a standby is idle and caught up; zero bytes behind then is zero lag.
  const ms = facts.standbyReplayLagMs ?? (facts.standbyLagBytes === 0 ? 0 : null);
  return judgeLag(ms, maxLagMs, 'the slowest standby');
}

function judgeStandby(facts: Extract<ReplicationFacts, { role: 'standby' }>, now: IsoTime, maxLagMs: number): Durability {
  // Caught up and streaming: nothing received waits, so the age of the last replayed commit is the primary's quiet, not lag.
  const current = facts.caughtUp && facts.receiving === true;
  const age = facts.lastReplayAt === null ? null : Math.max(0, toMs('now', now) - toMs('lastReplayAt', facts.lastReplayAt));
  const lag = judgeLag(current ? 0 : age, maxLagMs, 'this standby');
  return {
    mode: 'unknown',
    synchronousStandbys: null,
    asynchronousStandbys: null,
    answeredBy: { node: facts.node, role: 'standby' },
    generation: null,
    lag: { state: lag.state, ms: lag.ms, bytes: null, maxMs: maxLagMs },
    reasons: [
      {
        code: 'answered_by_standby',
        message: `answered by standby ${nodeName(facts.node)}: how the primary replicates cannot be seen from here`,
      },
      ...(lag.reason ? [lag.reason] : []),
    ],
  };
}

function judgeLag(ms: number | null, maxLagMs: number, who: string): LagJudgement {
  if (ms === null) return { state: 'unknown', ms: null, reason: { code: 'lag_unknown', message: `${who}'s lag cannot be measured` } };
  const rounded = Math.round(ms);
  if (rounded > maxLagMs) {
    return {
      state: 'behind',
      ms: rounded,
      reason: { code: 'lag_behind', message: `${who} is ${formatDuration(rounded)} behind > ${formatDuration(maxLagMs)}` },
    };
  }
  return { state: 'ok', ms: rounded, reason: { code: 'lag_ok', message: `${who} is ${formatDuration(rounded)} behind (within ${formatDuration(maxLagMs)})` } };
}

const nodeName = (node: string | null) => node ?? '(unnamed)';

/**
 * A standby answered and its lag is over the bound or cannot be measured: its
 * facts may be stale, so the status service answers every state unknown
 * rather than what it read (docs/design.md, "Replication and failover").
 */
export function answeredTooFarBehind(d: Durability): boolean {
  return d.answeredBy?.role === 'standby' && d.lag.state !== 'ok';
}

/** A grant as the lease's events record it: its epoch and time, and what it knew of the tenure before it. */
export interface GrantLog {
  epoch: number;
  atMs: number;
  previousEpoch: number | null;
  /** The previous tenure's last renewal and its end, as the granting node holds them (null: not recorded). */
  previousRenewedMs: number | null;
  previousEndedMs: number | null;
}

export interface FailoverWindow {
  fromMs: number;
  toMs: number;
  fromGeneration: number;
  toGeneration: number;
}

/**
 * Failover windows on one lease's timeline: a grant of a later failover
 * generation than the tenure before it marks a failover, and the span from
 * the last evidence the new primary holds of that tenure (its last renewal,
 * or its end if earlier) to the grant is a window in which nothing can be
 * known — grants and renewals made there on the old primary may have been
 * lost with it. The timeline reads unknown over it, never green.
 */
export function failoverWindows(grants: readonly GrantLog[]): FailoverWindow[] {
  const windows: FailoverWindow[] = [];
  for (const g of grants) {
    if (g.previousEpoch === null) continue;
    const [fromGeneration, toGeneration] = [generationOf(g.previousEpoch), generationOf(g.epoch)];
    if (toGeneration <= fromGeneration) continue;
    const evidence = Math.min(g.previousRenewedMs ?? Infinity, g.previousEndedMs ?? Infinity, g.atMs);
    windows.push({ fromMs: evidence, toMs: g.atMs, fromGeneration, toGeneration });
  }
  return windows;
}

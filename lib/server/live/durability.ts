/**
 * The durability fact of a live read: what the answering node says of its
 * replication (db/replication-state.ts, one statement through a definer
 * function the reader role may call), judged by lib/status/durability.ts.
 *
 * Guarantees: `readReplicationFacts` never throws — a failed read is `null`,
 * which the judgement turns into `unknown` (never a mode it did not see);
 * the node is named by its pool id (`node-1` …), never a host.
 * Non-guarantees: no deadline of its own — it runs inside the live read's
 * (../store/observer.ts), after the facts statement, on whichever
 * connection the pool gives (the node of that connection is the one named).
 */
import { readReplicationState, type ReplicationReadable, type ReplicationState } from '../../../db/replication-state';
import type { ReplicationFacts } from '../../status';

/** What lib/status judges, from what the node said. */
function replicationFacts(state: ReplicationState): ReplicationFacts {
  if (state.role === 'standby') {
    return { role: 'standby', node: state.node, lastReplayAt: state.lastReplayAt, caughtUp: state.caughtUp === true, receiving: state.receiving };
  }
  return {
    role: 'primary',
    node: state.node,
    generation: state.generation ?? 0,
    standbys: state.standbys ?? { synchronous: 0, asynchronous: 0, hidden: 0 },
    synchronousStandbyNamesSet: state.synchronousStandbyNamesSet,
    synchronousCommit: state.synchronousCommit,
    standbyReplayLagMs: state.standbyReplayLagMs,
    standbyLagBytes: state.standbyLagBytes,
  };
}

/** The answering node's replication facts, or null when they could not be read. */
export async function readReplicationFacts(db: ReplicationReadable): Promise<ReplicationFacts | null> {
  try {
    return replicationFacts(await readReplicationState(db));
  } catch {
    return null;
  }
}

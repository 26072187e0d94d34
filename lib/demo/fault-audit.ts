/**
 * The demo's fault drills, audited like every operator action
 * (fault_drill_audit, migration 0016_operator_identity): who and how identified, which drill on
 * which process (its demo id, lease and instance token), from → to, why, when
 * (the database clock). Append-only: the operator-actions login may insert
 * and read, never change or delete (db/roles.ts).
 */
import type pg from 'pg';
import type { DrillAction, DemoProcess } from '../api/types';
import type { IdentifiedBy } from '../limits';
import { describeDemoProcess } from '../client/demo-process';

export interface FaultDrill {
  /** The process as it was when the drill was asked for. */
  before: DemoProcess;
  /** As the supervisor answered once it was applied. */
  after: DemoProcess;
  action: DrillAction;
  by: string;
  identifiedBy: IdentifiedBy;
  reason: string;
}

/** Appends the drill's audit row; returns its time (ISO, database clock). */
export async function recordFaultDrill(db: Pick<pg.Pool, 'query'>, drill: FaultDrill): Promise<string> {
  const { rows } = await db.query<{ at: Date }>(
    `INSERT INTO fault_drill_audit (lease, process, instance, action, from_state, to_state, by, identified_by, reason, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp()) RETURNING at`,
    [
      drill.before.lease,
      drill.before.id,
      drill.before.token,
      drill.action,
      describeDemoProcess(drill.before),
      describeDemoProcess(drill.after),
      drill.by,
      drill.identifiedBy,
      drill.reason,
    ],
  );
  return rows[0]!.at.toISOString();
}

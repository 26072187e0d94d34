/**
 * Operator intent: an explicit per-lease choice ("disabled for maintenance").
 *
 * Guarantees
 * - Only `changeIntent` changes it, and every change is appended to
 *   intent_audit in the same transaction, timed by the database clock, so the
 *   audit's from → to is exact (changes to one lease are serialised).
 * - A change that would not change anything is refused as `unchanged` (no
 *   audit noise); with `expectDisabled`, a change based on a state that is no
 *   longer current is refused as `conflict` — what an operator confirmed is
 *   what happens, or nothing.
 * - Nothing in the runtime, the authority, the pruner or the alert evaluator
 *   calls it: automation may restore facts, never overturn a choice. While
 *   disabled, acquisition is refused (./sql.ts).
 */
import type pg from 'pg';
import { z } from 'zod';
import { type IdentifiedBy, OPERATOR_NAME_MAX_LENGTH as BY_MAX, REASON_MAX_LENGTH as REASON_MAX } from '../limits';

export const intentChangeSchema = z.object({
  disabled: z.boolean(),
  by: z.string().trim().min(1, 'by: who is changing the intent').max(BY_MAX, `by: at most ${BY_MAX} characters`),
  reason: z.string().trim().min(1, 'reason: say why').max(REASON_MAX, `reason: at most ${REASON_MAX} characters`),
});
export type IntentChange = z.infer<typeof intentChangeSchema>;

export interface Intent extends IntentChange {
  at: Date;
}

export type IntentChangeResult =
  | { kind: 'changed'; from: boolean; intent: Intent }
  | { kind: 'unchanged'; current: Intent }
  | { kind: 'conflict'; current: Intent | null }
  | { kind: 'unknown_scheduler' };

type Db = Pick<pg.Pool, 'query'>;

const READ_INTENT_SQL = 'SELECT disabled, by, reason, at FROM scheduler_intents WHERE lease = $1';

/**
 * Change one lease's intent. `expectDisabled`: the state the operator saw
 * (absent: whatever it is). `mustExist`: refuse names never registered nor
 * held (the API's choice; the CLI may disable a scheduler before it first runs).
 * `identifiedBy`: how `by` was established, for the audit (absent: not recorded).
 */
export async function changeIntent(
  pool: Pick<pg.Pool, 'connect'>,
  lease: string,
  change: IntentChange,
  options: { expectDisabled?: boolean; mustExist?: boolean; identifiedBy?: IdentifiedBy } = {},
): Promise<IntentChangeResult> {
  const { disabled, by, reason } = intentChangeSchema.parse(change);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Serialise changes to this lease (also the very first one, when no row exists to lock).
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.intent:' || $1, 0))", [lease]);
    const known = options.mustExist
      ? await client.query(
          `SELECT 1 FROM schedulers WHERE name = $1 UNION ALL SELECT 1 FROM leases WHERE name = $1
           UNION ALL SELECT 1 FROM scheduler_intents WHERE lease = $1 LIMIT 1`,
          [lease],
        )
      : null;
    if (known?.rowCount === 0) {
      await client.query('ROLLBACK');
      return { kind: 'unknown_scheduler' };
    }
    const current = (await client.query<Intent>(READ_INTENT_SQL, [lease])).rows[0] ?? null;
    const currentlyDisabled = current?.disabled ?? false;
    if (options.expectDisabled !== undefined && options.expectDisabled !== currentlyDisabled) {
      await client.query('ROLLBACK');
      return { kind: 'conflict', current };
    }
    if (current !== null && currentlyDisabled === disabled) {
      await client.query('ROLLBACK');
      return { kind: 'unchanged', current };
    }
    const { rows } = await client.query<{ at: Date }>(
      `WITH c AS (SELECT clock_timestamp() AS now),
         upsert AS (
           INSERT INTO scheduler_intents (lease, disabled, by, reason, at) SELECT $1, $2, $3, $4, c.now FROM c
           ON CONFLICT (lease) DO UPDATE SET disabled = excluded.disabled, by = excluded.by, reason = excluded.reason, at = excluded.at
         ),
         audit AS (INSERT INTO intent_audit (lease, disabled, by, identified_by, reason, at) SELECT $1, $2, $3, $5, $4, c.now FROM c)
       SELECT now AS at FROM c`,
      [lease, disabled, by, reason, options.identifiedBy ?? null],
    );
    await client.query('COMMIT');
    return { kind: 'changed', from: currentlyDisabled, intent: { disabled, by, reason, at: rows[0]!.at } };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export async function readIntent(db: Db, lease: string): Promise<Intent | null> {
  const { rows } = await db.query<Intent>(READ_INTENT_SQL, [lease]);
  return rows[0] ?? null;
}

export class IntentError extends Error {
  constructor(message: string) {
    super(`intent: ${message}`);
    this.name = 'IntentError';
  }
}

/** `changeIntent` without an expected state, for scripts and tests: the resulting intent, whether or not it changed. */
export async function setIntent(pool: Pick<pg.Pool, 'connect'>, lease: string, change: IntentChange): Promise<Intent> {
  const result = await changeIntent(pool, lease, change);
  switch (result.kind) {
    case 'changed':
      return result.intent;
    case 'unchanged':
      return result.current;
    case 'unknown_scheduler':
    case 'conflict':
      throw new IntentError(`unexpected ${result.kind} without an expected state`);
    default: {
      const unreachable: never = result;
      throw new Error(`unexpected intent result ${JSON.stringify(unreachable)}`);
    }
  }
}

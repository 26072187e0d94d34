/**
 * Operator intent: an explicit per-lease choice ("disabled for maintenance").
 * Guarantees: only `setIntent` changes it, and every change is appended to
 * intent_audit in the same statement, timed by the database clock. Nothing in
 * the runtime or the authority calls `setIntent`: automation may restore facts,
 * never overturn a choice. While disabled, acquisition is refused (./sql.ts).
 */
import type pg from 'pg';
import { z } from 'zod';

export const intentChangeSchema = z.object({
  disabled: z.boolean(),
  by: z.string().trim().min(1, 'by: who is changing the intent').max(64),
  reason: z.string().trim().min(1, 'reason: say why').max(200),
});
export type IntentChange = z.infer<typeof intentChangeSchema>;

export interface Intent extends IntentChange {
  at: Date;
}

type Db = Pick<pg.Pool, 'query'>;

export async function setIntent(db: Db, lease: string, change: IntentChange): Promise<Intent> {
  const { disabled, by, reason } = intentChangeSchema.parse(change);
  const { rows } = await db.query<{ at: Date }>(
    `WITH c AS (SELECT clock_timestamp() AS now),
       upsert AS (
         INSERT INTO scheduler_intents (lease, disabled, by, reason, at) SELECT $1, $2, $3, $4, c.now FROM c
         ON CONFLICT (lease) DO UPDATE SET disabled = excluded.disabled, by = excluded.by, reason = excluded.reason, at = excluded.at
       ),
       audit AS (INSERT INTO intent_audit (lease, disabled, by, reason, at) SELECT $1, $2, $3, $4, c.now FROM c)
     SELECT now AS at FROM c`,
    [lease, disabled, by, reason],
  );
  return { disabled, by, reason, at: rows[0]!.at };
}

export async function readIntent(db: Db, lease: string): Promise<Intent | null> {
  const { rows } = await db.query<Intent>('SELECT disabled, by, reason, at FROM scheduler_intents WHERE lease = $1', [lease]);
  return rows[0] ?? null;
}

/**
 * An operator's labels for a scheduler: set them (they replace whatever its
 * registration declares) or hand them back to the registration (`null`).
 *
 * Guarantees
 * - Labels are checked by lib/limits/labels.ts here and again by the database
 *   (CHECK leaseboard_labels_ok, migration scheduler_labels); a refused set
 *   changes nothing.
 * - Every change is appended to label_audit in the same transaction, timed by
 *   the database clock, with its exact from → to (changes to one scheduler
 *   are serialised by an advisory lock, as intents are).
 * - A change that would change nothing is refused as `unchanged` (no audit
 *   noise); with `expectLabels`, a change based on labels that are no longer
 *   the operator's is refused as `conflict`.
 * - Registrations never write label_overrides (by privilege: only the
 *   operator role may, db/roles.ts), so what an operator set stays the
 *   scheduler's labels until an operator changes it (invariant 9). A write
 *   stamps label_overrides' change_xid, so the status service's next
 *   incremental read shows the new labels.
 */
import type pg from 'pg';
import { checkLabels, type Labels, sameLabels } from '../limits/labels';
import type { IdentifiedBy } from '../limits';

export interface LabelsChange {
  /** The operator's labels, or null: the registration's labels apply again. */
  labels: Labels | null;
  by: string;
  reason: string;
}

export type LabelsChangeResult =
  | { kind: 'changed'; from: Labels | null; to: Labels | null; labels: Labels; at: Date }
  | { kind: 'unchanged'; current: Labels | null }
  | { kind: 'conflict'; current: Labels | null }
  | { kind: 'invalid'; message: string }
  | { kind: 'unknown_scheduler' };

const same = (a: Labels | null, b: Labels | null) => (a === null || b === null ? a === b : sameLabels(a, b));

/**
 * Change one scheduler's operator labels. `expectLabels`: the operator labels the operator saw
 * (null: none set; absent: whatever they are). The scheduler must be known (registered, held or
 * with an intent).
 */
export async function changeLabels(
  pool: Pick<pg.Pool, 'connect'>,
  name: string,
  change: LabelsChange,
  options: { identifiedBy: IdentifiedBy; expectLabels?: Labels | null },
): Promise<LabelsChangeResult> {
  let to: Labels | null = null;
  if (change.labels !== null) {
    const checked = checkLabels(change.labels);
    if (!checked.ok) return { kind: 'invalid', message: checked.message };
    to = checked.labels;
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Serialise changes to this scheduler's labels (also the very first one, when no row exists to lock).
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.labels:' || $1, 0))", [name]);
    const { rows } = await client.query<{ known: boolean; current: Labels | null; declared: Labels | null }>(
      `SELECT EXISTS (SELECT 1 FROM schedulers WHERE name = $1 UNION ALL SELECT 1 FROM leases WHERE name = $1
                      UNION ALL SELECT 1 FROM scheduler_intents WHERE lease = $1) AS known,
              (SELECT labels FROM label_overrides WHERE name = $1) AS current,
              (SELECT labels FROM schedulers WHERE name = $1) AS declared`,
      [name],
    );
    const { known, current, declared } = rows[0]!;
    const outcome: LabelsChangeResult | null = !known
      ? { kind: 'unknown_scheduler' }
      : options.expectLabels !== undefined && !same(options.expectLabels, current)
        ? { kind: 'conflict', current }
        : same(current, to)
          ? { kind: 'unchanged', current }
          : null;
    if (outcome !== null) {
      await client.query('ROLLBACK');
      return outcome;
    }
    const toJson = to === null ? null : JSON.stringify(to);
    const written = await client.query<{ at: Date }>(
      `WITH c AS (SELECT clock_timestamp() AS now),
         upsert AS (
           INSERT INTO label_overrides (name, labels, by, reason, at) SELECT $1, $2::jsonb, $3, $4, c.now FROM c
           ON CONFLICT (name) DO UPDATE SET labels = excluded.labels, by = excluded.by, reason = excluded.reason, at = excluded.at
         ),
         audit AS (
           INSERT INTO label_audit (scheduler, from_labels, to_labels, by, identified_by, reason, at)
           SELECT $1, $5::jsonb, $2::jsonb, $3, $6, $4, c.now FROM c
         )
       SELECT now AS at FROM c`,
      [name, toJson, change.by, change.reason, current === null ? null : JSON.stringify(current), options.identifiedBy],
    );
    await client.query('COMMIT');
    return { kind: 'changed', from: current, to, labels: to ?? declared ?? {}, at: written.rows[0]!.at };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

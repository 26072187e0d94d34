/**
 * Operator intent by label selector: disable (or enable) every scheduler a
 * selector matches, one reason for all.
 *
 * Guarantees
 * - One transaction: either every matched scheduler that was not already so
 *   changes, each with its own intent_audit row (same `at`, the database
 *   clock), or nothing does.
 * - Each scheduler is serialised with the one-at-a-time action (./intent.ts:
 *   the same advisory lock, taken in name order so two bulk changes cannot
 *   deadlock), so every audit row's from → to is exact.
 * - A selector that matches no known scheduler changes nothing
 *   (`nothing_matched`); neither does one whose matches are all already so
 *   (`unchanged`).
 * - Labels are the scheduler's as the list shows them (an operator's when
 *   set, else its registration's); matching is lib/limits/selector.ts's.
 * Not guaranteed: that a scheduler registering during the change is matched
 * (it is judged by the labels committed when the change read them).
 */
import type pg from 'pg';
import { type IdentifiedBy, OPERATOR_NAME_MAX_LENGTH as BY_MAX, REASON_MAX_LENGTH as REASON_MAX } from '../limits';
import type { Labels } from '../limits/labels';
import { matchesSelector, type Selector } from '../limits/selector';

export interface BulkIntentChange {
  selector: Selector;
  disabled: boolean;
  by: string;
  reason: string;
  identifiedBy: IdentifiedBy;
}

export type BulkIntentResult =
  { kind: 'changed'; changed: string[]; unchanged: string[]; at: Date } | { kind: 'unchanged'; unchanged: string[] } | { kind: 'nothing_matched' };

const KNOWN_SQL = `SELECT n.name, coalesce(o.labels, s.labels, '{}'::jsonb) AS labels
  FROM (SELECT name FROM schedulers UNION SELECT name FROM leases UNION SELECT lease FROM scheduler_intents) n
  LEFT JOIN label_overrides o ON o.name = n.name
  LEFT JOIN schedulers s ON s.name = n.name`;

export async function changeIntentBySelector(pool: Pick<pg.Pool, 'connect'>, change: BulkIntentChange): Promise<BulkIntentResult> {
  const by = change.by.trim();
  const reason = change.reason.trim();
  if (by.length === 0 || by.length > BY_MAX) throw new RangeError(`by: 1–${BY_MAX} characters`);
  if (reason.length === 0 || reason.length > REASON_MAX) throw new RangeError(`reason: 1–${REASON_MAX} characters`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const known = await client.query<{ name: string; labels: Labels }>(KNOWN_SQL);
    const matched = known.rows
      .filter((r) => matchesSelector(change.selector, r.labels))
      .map((r) => r.name)
      .sort();
    if (matched.length === 0) {
      await client.query('ROLLBACK');
      return { kind: 'nothing_matched' };
    }
    // The per-scheduler lock of ./intent.ts, in name order.
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.intent:' || n, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i",
      [matched],
    );
    const current = await client.query<{ lease: string; disabled: boolean }>('SELECT lease, disabled FROM scheduler_intents WHERE lease = ANY($1::text[])', [
      matched,
    ]);
    const now = new Map(current.rows.map((r) => [r.lease, r.disabled]));
    // As ./intent.ts: a scheduler without an intent row is enabled, and enabling it writes the explicit choice.
    const toChange = matched.filter((name) => !(now.has(name) && now.get(name) === change.disabled));
    const unchanged = matched.filter((name) => !toChange.includes(name));
    if (toChange.length === 0) {
      await client.query('ROLLBACK');
      return { kind: 'unchanged', unchanged };
    }
    const { rows } = await client.query<{ at: Date }>(
      `WITH c AS (SELECT clock_timestamp() AS now),
         upsert AS (
           INSERT INTO scheduler_intents (lease, disabled, by, reason, at) SELECT n, $2, $3, $4, c.now FROM c, unnest($1::text[]) AS n
           ON CONFLICT (lease) DO UPDATE SET disabled = excluded.disabled, by = excluded.by, reason = excluded.reason, at = excluded.at
         ),
         audit AS (INSERT INTO intent_audit (lease, disabled, by, identified_by, reason, at) SELECT n, $2, $3, $5, $4, c.now FROM c, unnest($1::text[]) AS n)
       SELECT now AS at FROM c`,
      [toChange, change.disabled, by, reason, change.identifiedBy],
    );
    await client.query('COMMIT');
    return { kind: 'changed', changed: toChange, unchanged, at: rows[0]!.at };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

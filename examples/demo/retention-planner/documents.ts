/**
 * The synthetic document table the retention planner scans, and its policies.
 * Seeding is deterministic (ids 1..N, classes and ages derived from the id) and
 * idempotent, so a second demo start reuses the data. Nothing ever deletes a
 * document: planning only writes "would expire" plan items.
 */
import type pg from 'pg';

/** Retention classes and how long a document of each class is kept (null: forever). */
export const RETENTION_POLICIES = {
  short: '30 days',
  standard: '365 days',
  legal_hold: null,
} as const;
export type RetentionClass = keyof typeof RETENTION_POLICIES;

const DEFAULT_DOCUMENT_COUNT = 50_000;

/** Inserts documents 1..count that are missing; returns how many exist afterwards. */
export async function seedDocuments(db: Pick<pg.Pool, 'query'>, count = DEFAULT_DOCUMENT_COUNT): Promise<number> {
  await db.query(
    `INSERT INTO leaseboard_demo.documents (id, retention_class, created_at)
     SELECT g, (ARRAY['short','standard','standard','legal_hold'])[1 + g % 4],
            clock_timestamp() - ((g * 7919) % 800) * interval '1 day'
     FROM generate_series(1, $1::int) g
     ON CONFLICT (id) DO NOTHING`,
    [count],
  );
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM leaseboard_demo.documents');
  return rows[0]!.n;
}

/**
 * Step 1 of the retention planner, `plan`: batch by batch over the synthetic
 * documents, (read, read-only) the next documents after the cursor, (plan,
 * pure: ./policy.ts) which would expire, (write, fenced) their plan items —
 * keyed (occurrence, document), so a re-run batch writes each at most once.
 * The runtime moves the cursor in the same statement. Nothing is deleted.
 */
import { planItems } from '../db/schema';
import { fencedStep, type ReadOnlyPool } from '../../../lib/scheduler';
import { type DocumentRow, planExpiries } from './policy';

export interface DocumentBatch {
  documents: DocumentRow[];
  /** Database time of the read: the policy judges ages against it. */
  readAt: Date;
}

async function readDocumentBatch(db: ReadOnlyPool, after: number, limit: number): Promise<DocumentBatch> {
  const { rows } = await db.query<{ id: string; retention_class: string; created_at: Date; read_at: Date }>({
    text: `SELECT d.id, d.retention_class, d.created_at, clock_timestamp() AS read_at
           FROM leaseboard_demo.documents d WHERE d.id > $1::bigint ORDER BY d.id LIMIT $2::int`,
    values: [after, limit],
  });
  return {
    documents: rows.map((row) => ({ id: Number(row.id), retentionClass: row.retention_class, createdAt: row.created_at })),
    readAt: rows[0]?.read_at ?? new Date(0),
  };
}

export function planStep(batchSize: number) {
  return fencedStep({
    name: 'plan',
    read: async ({ db, cursor }) => {
      const batch = await readDocumentBatch(db, cursor, batchSize);
      return batch.documents.length === 0 ? null : { data: batch, next: batch.documents.at(-1)!.id };
    },
    plan: (batch: DocumentBatch) => planExpiries(batch.documents, batch.readAt),
    write: (w, items, { key }) =>
      items.length === 0
        ? []
        : [
            w.insert(planItems, items, {
              same: { occurrence: key, writtenAt: w.now },
              onConflict: { target: [planItems.occurrence, planItems.documentId], action: 'nothing' },
            }),
          ],
  });
}

/**
 * Retention planning, one batch at a time, in three steps with their action
 * classes declared: (1) read the next documents after the cursor (read-only),
 * (2) decide which would expire (pure, ./policy.ts), (3) write their plan items
 * and advance the cursor in ONE fenced statement — a stale epoch writes
 * neither. Plan items are keyed (occurrence, document): re-running a batch
 * after a takeover writes each at most once. Nothing is ever deleted.
 */
import type pg from 'pg';
import { defineAction } from '../lease/actions';
import { type Fence, type FencedResult, fencedWrite } from '../lease/fence';
import { type DocumentRow, planExpiries, type PlanItem } from './policy';

export interface DocumentBatch {
  documents: DocumentRow[];
  /** Database time of the read: the policy judges ages against it. */
  readAt: Date;
}

export async function readDocumentBatch(db: Pick<pg.Pool, 'query'>, after: number, limit: number): Promise<DocumentBatch> {
  const { rows } = await db.query<{ id: string; retention_class: string; created_at: Date; read_at: Date }>({
    name: 'retention_read_batch',
    text: `SELECT d.id, d.retention_class, d.created_at, clock_timestamp() AS read_at
           FROM documents d WHERE d.id > $1::bigint ORDER BY d.id LIMIT $2::int`,
    values: [after, limit],
  });
  return {
    documents: rows.map((row) => ({ id: Number(row.id), retentionClass: row.retention_class, createdAt: row.created_at })),
    readAt: rows[0]?.read_at ?? new Date(0),
  };
}

export interface WrittenBatch {
  /** Plan items newly written (an item already planned is not written again). */
  written: number;
  cursor: number;
}

/** Writes `items` for `occurrence` and moves its cursor to `cursor`, fenced. */
export async function writePlanItems(
  db: Pick<pg.Pool, 'query'>,
  fence: Fence,
  input: { occurrence: string; items: PlanItem[]; cursor: number },
): Promise<FencedResult<WrittenBatch>> {
  return fencedWrite<WrittenBatch>(db, fence, {
    statementName: 'retention_write_plan_items',
    ctes: `
    items AS (
      INSERT INTO plan_items (occurrence, document_id, policy, epoch, written_at)
      SELECT $4, item.id, item.policy, fence.epoch, fence.at
      FROM fence, unnest($5::bigint[], $6::text[]) AS item(id, policy)
      ON CONFLICT (occurrence, document_id) DO NOTHING
      RETURNING 1
    ),
    moved AS (
      UPDATE occurrences o SET cursor = GREATEST(o.cursor, $7::bigint)
      FROM fence WHERE o.key = $4 AND o.state = 'running'
      RETURNING o.cursor
    ),
    w AS (SELECT (SELECT count(*) FROM items)::int AS written, $7::float8 AS cursor FROM fence)`,
    params: [input.occurrence, input.items.map((item) => item.documentId), input.items.map((item) => item.policy), input.cursor],
  });
}

/** Plans one batch end to end (used where no pause between read and write is wanted). */
export async function planBatch(
  db: Pick<pg.Pool, 'query'>,
  fence: Fence,
  input: { occurrence: string; after: number; limit: number },
): Promise<FencedResult<WrittenBatch & { scanned: number }>> {
  const batch = await readDocumentBatch(db, input.after, input.limit);
  const last = batch.documents.at(-1)?.id ?? input.after;
  const result = await writePlanItems(db, fence, { occurrence: input.occurrence, items: planExpiries(batch.documents, batch.readAt), cursor: last });
  if (result.kind !== 'written') return result;
  return { ...result, rows: result.rows.map((row) => ({ ...row, scanned: batch.documents.length })) };
}

export const readDocumentBatchAction = defineAction({
  name: 'retention.read_batch',
  actionClass: 'read_only',
  run: (ctx, input: { after: number; limit: number }) => readDocumentBatch(ctx.db, input.after, input.limit),
});

export const writePlanItemsAction = defineAction({
  name: 'retention.write_plan_items',
  actionClass: 'fenced',
  run: (ctx, input: { occurrence: string; items: PlanItem[]; cursor: number }) => writePlanItems(ctx.db, ctx.fence!, input),
});

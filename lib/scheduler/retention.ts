/**
 * Retention planning, one fenced batch at a time: scan documents after the
 * occurrence's cursor, write a plan item for each that would expire under its
 * policy, and advance the cursor — ONE fenced statement, so a stale epoch
 * writes neither items nor cursor. Plan items are keyed (occurrence,
 * document): re-running a batch after a takeover writes each at most once.
 */
import type pg from 'pg';
import { defineAction } from '../lease/actions';
import { type Fence, type FencedResult, fencedWrite } from '../lease/fence';
import { RETENTION_INTERVAL_SQL } from './documents';

export interface BatchInput {
  occurrence: string;
  /** Last document id already planned (the occurrence's cursor). */
  after: number;
  limit: number;
}

export interface BatchOutcome {
  /** Documents scanned in this batch; 0 means the scan is finished. */
  scanned: number;
  /** Plan items newly written (an item already planned is not written again). */
  written: number;
  /** The new cursor (last scanned id), or the old one when nothing was scanned. */
  cursor: number;
}

export async function planBatch(db: Pick<pg.Pool, 'query'>, fence: Fence, input: BatchInput): Promise<FencedResult<BatchOutcome>> {
  return fencedWrite<BatchOutcome>(db, fence, {
    statementName: 'retention_plan_batch',
    ctes: `
    batch AS (SELECT d.id, d.retention_class, d.created_at, ${RETENTION_INTERVAL_SQL} AS keep
              FROM documents d WHERE d.id > $5::bigint ORDER BY d.id LIMIT $6::int),
    items AS (
      INSERT INTO plan_items (occurrence, document_id, policy, epoch, written_at)
      SELECT $4, b.id, b.retention_class, fence.epoch, fence.at FROM batch b, fence
      WHERE b.keep IS NOT NULL AND b.created_at < fence.at - b.keep
      ON CONFLICT (occurrence, document_id) DO NOTHING
      RETURNING 1
    ),
    moved AS (
      UPDATE occurrences o SET cursor = GREATEST(o.cursor, (SELECT max(id) FROM batch))
      FROM fence WHERE o.key = $4 AND o.state = 'running' AND (SELECT max(id) FROM batch) IS NOT NULL
      RETURNING o.cursor
    ),
    w AS (
      SELECT (SELECT count(*) FROM batch)::int AS scanned, (SELECT count(*) FROM items)::int AS written,
             coalesce((SELECT max(id) FROM batch), $5::bigint)::float8 AS cursor
      FROM fence
    )`,
    params: [input.occurrence, input.after, input.limit],
  });
}

/** The planner's write, declared as a fenced maintenance action. */
export const planBatchAction = defineAction({
  name: 'retention.plan_batch',
  actionClass: 'fenced',
  run: (ctx, input: BatchInput) => planBatch(ctx.db, ctx.fence!, input),
});

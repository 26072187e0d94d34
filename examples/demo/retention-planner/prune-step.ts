/**
 * The retention planner's last step, `prune`: the demo keeps its own plan items bounded (the product's
 * retention pruner knows none of the demo's tables). Once an occurrence is planned, (read, read-only)
 * find the oldest of the lease's newest `KEEP_OCCURRENCES` planned occurrences, (plan, pure) nothing to decide,
 * (write, fenced) delete up to `PRUNE_BATCH` plan items of this lease from occurrences before it, batch by
 * batch until none is left. Keys are `lease@instant` in a fixed-width UTC form, so "before" is a string
 * comparison. Fenced: a stale holder's delete is refused like its inserts.
 * Not guaranteed: plan items of a lease that no longer runs are never pruned (the demo's leases run).
 */
import { sql } from 'drizzle-orm';
import { fencedStep } from '../../../lib/scheduler';
import { planItems } from '../db/schema';

/** The current occurrence's plan and the two before it (what the product's retention kept by default before). */
export const KEEP_OCCURRENCES = 3;
const PRUNE_BATCH = 5_000;

export function pruneStep() {
  return fencedStep({
    name: 'prune',
    read: async ({ db, lease, cursor }) => {
      const { rows } = await db.query<{ oldest: string | null; any: boolean }>({
        // The plans themselves say which occurrences they belong to: the product's occurrences table may
        // keep fewer than KEEP_OCCURRENCES (its retention can be shorter than three cadences), and then
        // nothing would ever be pruned.
        text: `WITH kept AS (SELECT DISTINCT occurrence FROM leaseboard_demo.plan_items WHERE lease = $1 ORDER BY occurrence DESC OFFSET $2::int LIMIT 1)
               SELECT (SELECT occurrence FROM kept) AS oldest,
                      EXISTS (SELECT 1 FROM leaseboard_demo.plan_items p, kept WHERE p.occurrence < kept.occurrence AND p.lease = $1) AS any`,
        values: [lease, KEEP_OCCURRENCES - 1],
      });
      const { oldest, any } = rows[0]!;
      return oldest === null || !any ? null : { data: oldest, next: cursor + 1 };
    },
    plan: (oldest: string) => oldest,
    write: (w, oldest, { lease }) => [
      w.delete(
        planItems,
        sql`ctid = ANY (ARRAY(SELECT p.ctid FROM ${planItems} p WHERE p.occurrence < ${oldest} AND p.lease = ${lease} LIMIT ${PRUNE_BATCH}::int))`,
      ),
    ],
  });
}

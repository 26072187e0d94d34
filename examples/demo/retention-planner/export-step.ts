/**
 * Step 2 of the retention planner, `export` (external): once per occurrence,
 * (read, read-only) the occurrence's plan items counted by policy, (plan,
 * pure) a summary, (call) PUT it to the archive under the occurrence key,
 * carrying the lease and epoch. The archive refuses an epoch lower than the
 * highest it has seen (409), so a paused, superseded holder cannot overwrite
 * the new holder's summary (../archive/server.ts).
 */
import { type ArchiveTarget, putToArchive } from '../archive/client';
import { externalStep } from '../../../lib/scheduler';

export interface PlanSummary {
  occurrence: string;
  total: number;
  byPolicy: Record<string, number>;
}

export function exportStep(archive: ArchiveTarget) {
  return externalStep({
    name: 'export',
    target: { name: 'archive', checksEpoch: true },
    read: async ({ db, key, cursor }) => {
      if (cursor > 0) return null; // one call per occurrence
      const { rows } = await db.query<{ policy: string; n: number }>({
        text: 'SELECT policy, count(*)::int AS n FROM leaseboard_demo.plan_items WHERE occurrence = $1 GROUP BY policy ORDER BY policy',
        values: [key],
      });
      return { data: rows, next: 1 };
    },
    plan: (rows: { policy: string; n: number }[], { key }): PlanSummary => ({
      occurrence: key,
      total: rows.reduce((sum, row) => sum + row.n, 0),
      byPolicy: Object.fromEntries(rows.map((row) => [row.policy, row.n])),
    }),
    call: (request, summary, { key }) => putToArchive(archive, request, key, summary),
  });
}

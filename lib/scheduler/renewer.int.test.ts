// Several runtimes in one process (as the dashboard server hosts its jobs),
// on real PostgreSQL and real time: started out of step, their renewals come
// into step and leave as ONE statement for all their leases, and every lease
// is released at stop.
import { describe, expect, it } from 'vitest';
import { createReadOnlyPool } from '../../db/pool';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { retentionPlannerJob } from '../../examples/demo/retention-planner';
import { LeaseAuthority } from '../lease';
import { systemClock } from './clock';
import { schedulerConfig } from './config';
import { BatchRenewer } from './renewer';
import { SchedulerRuntime } from './runtime';
import { poll } from './testing/fixtures';

describe('one renewer for a process holding several leases (real PostgreSQL)', () => {
  const pool = usePool();

  it('runtimes started out of step renew all their leases in one statement within a few rounds', async () => {
    const readDb = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-renewer' });
    const authority = new LeaseAuthority(pool);
    const batches: string[][] = [];
    const renewer = new BatchRenewer({ renewMany: (grants) => (batches.push(grants.map((g) => g.name)), authority.renewMany(grants)) }, systemClock);
    const leases = [uniqueLease('batch'), uniqueLease('batch'), uniqueLease('batch')];
    const runtimes = leases.map(
      (name) =>
        new SchedulerRuntime(
          retentionPlannerJob(),
          schedulerConfig({ name, ttlMs: 3_000, renewEveryMs: 400, renewDeadlineMs: 1_000, safetyMarginMs: 300, reportEveryMs: 200, stallAfterMs: 2_000 }),
          { db: pool, readDb, renewer },
        ),
    );
    try {
      // Out of step: each starts only after the previous one has renewed.
      for (const [i, runtime] of runtimes.entries()) {
        runtime.start();
        await poll(
          async () => batches.filter((b) => b.includes(leases[i]!)).length,
          (n) => n > 0,
        );
      }
      const together = await poll(
        async () => batches.findIndex((b) => leases.every((name) => b.includes(name))),
        (i) => i >= 0,
      );
      // Once in step, they stay in step: the next rounds are whole batches too.
      await poll(
        async () => batches.slice(together),
        (later) => later.length >= 3,
      );
      expect(batches.slice(together, together + 3).map((b) => [...b].sort())).toEqual([0, 1, 2].map(() => [...leases].sort()));
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.stop()));
      await readDb.end();
    }
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM leases WHERE name = ANY($1) AND released_at IS NOT NULL', [leases]);
    expect(rows[0]!.n).toBe(3);
  });
});

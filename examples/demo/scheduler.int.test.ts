// The demo's scheduler program (./scheduler.ts) is `leaseboard scheduler` around the demo's own job:
// without --job it runs the retention planner, which plans into the demo's own table.
import { describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { poll, PROCESS_START_MS, useSchedulers } from '../../lib/scheduler/testing/fixtures';
import { seedDocuments } from './retention-planner/documents';

describe("the demo's scheduler program", () => {
  const pool = usePool();
  const spawn = useSchedulers(databaseUrl);

  it('runs the retention planner by default, writing fenced plan items into leaseboard_demo.plan_items', async () => {
    await seedDocuments(pool, 2_000);
    const lease = uniqueLease('demo-planner');
    const planner = spawn(lease, 'A', { 'batch-size': 500 });
    const started = await planner.waitFor((line) => line.event === 'started', PROCESS_START_MS);
    expect(started).toMatchObject({ job: 'retention-planner', lease });
    const items = await poll(
      async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM leaseboard_demo.plan_items WHERE lease = $1', [lease])).rows[0]!.n,
      (n) => n > 0,
      60_000,
    );
    expect(items).toBeGreaterThan(0);
  });
});

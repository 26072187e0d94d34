import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPool, createReadOnlyPool } from '../../db/pool';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { retentionPlannerJob } from '../../examples/demo/retention-planner';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../lease';
import { schedulerConfig } from './config';
import type { RuntimeEvent } from './events';
import { SchedulerProcess } from '../child/scheduler-process';
import { DEMO_SCHEDULER_PROGRAM } from '../../examples/demo/demo-scheduler';
import { SchedulerRuntime } from './runtime';
import { FAST_FLAGS, poll } from './testing/fixtures';

// Start, fail, retry and cancel a scheduler 100 times, in process and as child
// processes: connections, handles, timers, listeners and rows return to baseline.
describe('bounded resources over start/fail/retry/cancel cycles', () => {
  const pool = usePool();
  // This worker's database only: the other int workers run scheduler processes of their own on the same server.
  const connections = async (application: string) =>
    (
      await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [
        application,
      ])
    ).rows[0]!.n;
  const heldBy = async (tokens: string[]) =>
    (
      await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM leases WHERE holder = ANY($1) AND released_at IS NULL AND expires_at > clock_timestamp()`,
        [tokens],
      )
    ).rows[0]!.n;

  /** A port that accepts nothing: the "database is down" failure. */
  async function closedPort(): Promise<number> {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it('100 in-process cycles leave connections, handles, timers and listeners at baseline', async () => {
    const lease = uniqueLease('cycle');
    const blocker = new LeaseAuthority(pool);
    const downUrl = `postgres://nobody@127.0.0.1:${await closedPort()}/none`;
    const job = retentionPlannerJob();
    const config = schedulerConfig({
      name: lease,
      ttlMs: 3_000,
      renewEveryMs: 200,
      renewDeadlineMs: 1_000,
      safetyMarginMs: 300,
      reportEveryMs: 100,
      batchWorkMs: 5,
      stallAfterMs: 1_000,
    });
    const resources = () => {
      const counts: Record<string, number> = {};
      for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
      return counts;
    };
    const listeners = () =>
      process
        .eventNames()
        .map((name) => `${String(name)}:${process.listenerCount(name)}`)
        .sort();
    await pool.query('SELECT 1'); // the test's own pool holds its connection before the baseline
    await new Promise((resolve) => setTimeout(resolve, 50));
    const baseline = { resources: resources(), listeners: listeners() };
    const tokens: string[] = [];

    for (let cycle = 0; cycle < 100; cycle++) {
      const kind = (['acquire', 'fail', 'retry', 'cancel'] as const)[cycle % 4];
      const url = kind === 'fail' ? downUrl : databaseUrl();
      const runtimePool = createPool(url, { applicationName: 'leaseboard-cycle', connectTimeoutMs: 500 });
      const readDb = createReadOnlyPool(url, { applicationName: 'leaseboard-cycle', connectTimeoutMs: 500 });
      const events: RuntimeEvent[] = [];
      const seen = (event: RuntimeEvent['event']) => poll(async () => events.some((e) => e.event === event), Boolean, 10_000, 5);
      const runtime = new SchedulerRuntime(job, config, { db: runtimePool, readDb, onEvent: (event) => events.push(event) });
      tokens.push(runtime.token);
      let foreign = null;
      if (kind === 'retry') {
        const result = await blocker.acquire(leaseTerms({ name: lease, ttlMs: 3_000 }), newInstanceToken());
        if (result.kind === 'acquired') foreign = { name: lease, holder: '', epoch: result.epoch };
      }
      runtime.start();
      if (kind === 'acquire') await seen('acquired');
      if (kind === 'fail') await seen('error');
      if (kind === 'retry') await seen('held');
      // cancel: stop at once, mid-acquisition
      await runtime.stop();
      await Promise.all([runtimePool.end(), readDb.end()]);
      if (foreign) await pool.query('UPDATE leases SET released_at = clock_timestamp(), expires_at = clock_timestamp() WHERE name = $1', [lease]);
      expect(events.at(-1)?.event).toBe('stopped');
    }

    // The ended pools' server processes leave, and their sockets close, after end() resolves: wait (bounded) until
    // they have, then assert — no kind of handle or timer above its baseline count (the test pool's idle timer may be gone).
    const overBaseline = () => Object.entries(resources()).filter(([kind, count]) => count > (baseline.resources[kind] ?? 0));
    await poll(
      async () => ({ connections: await connections('leaseboard-cycle'), over: overBaseline() }),
      (left) => left.connections === 0 && left.over.length === 0,
      10_000,
      25,
    ).catch(() => undefined);
    expect(await connections('leaseboard-cycle')).toBe(0);
    expect(Object.fromEntries(overBaseline())).toEqual({});
    expect(listeners()).toEqual(baseline.listeners);
    expect(await heldBy(tokens)).toBe(0);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(rows[0].n).toBe(0);
  });

  // It asserts resources, not speed: its wall time is 100 process starts, five at a time — from the
  // prebuilt bundle (lib/child/testing/bundles.ts) about 0.3 s each, 40 s on a machine loaded 4× over;
  // through tsx a second of CPU each — hence its own timeout.
  it('100 child-process cycles: every process exits 0, no connection or lease is left behind', async () => {
    const lease = uniqueLease('child');
    const downUrl = `postgres://nobody@127.0.0.1:${await closedPort()}/none`;
    const tokens: string[] = [];
    const codes: (number | null)[] = [];
    const cycle = async (index: number) => {
      const kind = (['acquire', 'fail', 'retry', 'cancel'] as const)[index % 4];
      const child = new SchedulerProcess({
        program: DEMO_SCHEDULER_PROGRAM,
        lease,
        label: `C${index}`,
        databaseUrl: kind === 'fail' ? downUrl : databaseUrl(),
        flags: FAST_FLAGS,
      });
      // Each wait is a hang guard, not a speed check: five children start at once, beside the other
      // tiers' lanes, and a start took over 15 s on a machine loaded to 20.
      const within = 60_000;
      await child.waitFor((line) => line.event === 'started', within);
      tokens.push(child.token!);
      if (kind === 'acquire') await child.waitFor((line) => line.event === 'acquired' || line.event === 'held', within);
      if (kind === 'fail') await child.waitFor((line) => line.event === 'error' || line.event === 'acquire_unknown', within);
      if (kind === 'retry') await child.waitFor((line) => line.event === 'held' || line.event === 'acquired', within);
      codes.push(await child.stop());
      expect(child.running).toBe(false);
    };
    for (let batch = 0; batch < 100; batch += 5) await Promise.all([0, 1, 2, 3, 4].map((i) => cycle(batch + i)));
    expect(codes).toHaveLength(100);
    expect(codes.filter((code) => code !== 0)).toEqual([]);
    expect(
      await poll(
        () => connections('leaseboard-scheduler'),
        (n) => n === 0,
        5_000,
      ),
    ).toBe(0);
    expect(await heldBy(tokens)).toBe(0);
  }, 300_000);
});

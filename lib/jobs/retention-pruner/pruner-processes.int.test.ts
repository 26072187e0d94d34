// The pruner as real processes: a prune of 1,000,000 rows past retention beside
// two schedulers that renew, and two pruner instances contending for one lease.
// Waits are on events and stored facts, never sleeps.
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../../lease';
import { DEFAULT_RETENTION } from '../../retention';
import { createReadOnlyPool } from '../../scheduler';
import { runOneOccurrence, useSchedulers } from '../../scheduler/testing/fixtures';
import { RETENTION_PRUNER_JOB, retentionPrunerJob } from './index';

const ROWS = 1_000_000;
const RENEW_EVERY_MS = 1_000;
const RENEW_DEADLINE_MS = 2_000;

describe('the retention pruner with real processes', () => {
  const pool = usePool({ max: 6 });
  // Seeding a million rows through the fence trigger and indexes takes seconds on a loaded machine: it gets
  // its own pool without the product's 5 s statement timeout, which stays on every pool that is measured.
  const seedPool = usePool({ max: 1, statementTimeoutMs: 120_000 });
  const readDb = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-read' });
  afterAll(() => readDb.end());
  const spawn = useSchedulers(databaseUrl);

  it(`prunes ${ROWS.toLocaleString('en')} rows in batches while two schedulers renew: no renewal misses its deadline (p99 reported)`, async () => {
    // The schedulers beside the prune get a 10 s ttl and a 4 s renewal deadline: their own renewals must
    // never be refused, unknown or suspected, but a child starved of CPU for a second or two (the tier runs
    // beside others) is no finding about the prune. The 2 s deadline is held by the renewals timed below.
    const beside = { 'batch-size': 2_000, 'batch-work': 10, ttl: 10_000, 'renew-deadline': 4_000 };
    const a = spawn(uniqueLease('beside-a'), 'A', beside);
    const b = spawn(uniqueLease('beside-b'), 'B', beside);
    await Promise.all([a.waitFor((line) => line.event === 'acquired'), b.waitFor((line) => line.event === 'acquired')]);

    // The backlog: stale-write rejections 9 days old (past every retention), under a lease of their own.
    const owner = uniqueLease('backlog');
    await seedPool.query(
      `INSERT INTO stale_write_rejections (lease, attempted_epoch, current_epoch, resource, reason, at)
       SELECT $1, 1, 2, 'invoices', 'stale_epoch', clock_timestamp() - interval '9 days' - d * interval '1 millisecond' FROM generate_series(0, $2::int - 1) d`,
      [owner, ROWS],
    );

    // Two more holders renew from here, every second with a 2 s deadline as the schedulers do, timing each renewal.
    const holders = await Promise.all(
      ['r1', 'r2'].map(async (prefix) => {
        const name = uniqueLease(prefix);
        const holder = newInstanceToken();
        const acquired = await new LeaseAuthority(pool).acquire(leaseTerms({ name, ttlMs: 6_000 }), holder);
        if (acquired.kind !== 'acquired') throw new Error(acquired.kind);
        return { name, holder, epoch: acquired.epoch };
      }),
    );
    const renewals: { ms: number; kind: string }[] = [];
    let pruning = true;
    const renewing = (async () => {
      const authority = new LeaseAuthority(pool);
      while (pruning) {
        const round = holders.map(async (grant) => {
          const started = performance.now();
          const result = await authority.renew(grant);
          renewals.push({ ms: performance.now() - started, kind: result.kind });
        });
        await Promise.all([...round, new Promise((resolve) => setTimeout(resolve, RENEW_EVERY_MS))]);
      }
    })();

    const started = performance.now();
    const events = await runOneOccurrence(retentionPrunerJob(DEFAULT_RETENTION), uniqueLease('pruner'), { db: pool, readDb }).finally(async () => {
      pruning = false;
      await renewing;
    });
    const seconds = (performance.now() - started) / 1000;
    expect(events.filter((e) => e.event === 'error')).toEqual([]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM stale_write_rejections WHERE lease = $1`, [owner])).rows[0].n).toBe(0);
    const batches = events.filter((e) => e.event === 'step_started').length;

    const sorted = renewals.map((r) => r.ms).sort((x, y) => x - y);
    const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!;
    console.log(
      `pruned ${ROWS.toLocaleString('en')} stale-write rejections in ${seconds.toFixed(1)} s (${batches} steps); renewals during the prune: n=${sorted.length}, p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
    expect(renewals.length).toBeGreaterThan(0);
    expect(renewals.filter((r) => r.kind !== 'renewed')).toEqual([]);
    expect(sorted.at(-1)!).toBeLessThan(RENEW_DEADLINE_MS);
    // The schedulers' own renewals: never refused, never unknown, never suspected by their holders.
    for (const s of [a, b]) expect(s.lines.filter((line) => ['lost', 'renew_unknown', 'error'].includes(String(line.event)))).toEqual([]);
  });

  it('two pruners, one lease: one prunes; paused mid-write and taken over, the stale one’s write is refused', async () => {
    const lease = uniqueLease('pruner');
    const env = { LEASEBOARD_RETENTION_EVERY: '5s' };
    const options = { job: RETENTION_PRUNER_JOB, env };
    const p1 = spawn(lease, 'P1', { every: 5_000 }, options);
    const acquired = await p1.waitFor((line) => line.event === 'acquired');
    const p2 = spawn(lease, 'P2', { every: 5_000 }, options);
    await p2.waitFor((line) => line.event === 'held');
    await p1.waitFor((line) => line.event === 'occurrence_completed', 30_000);
    expect(p2.lines.some((line) => line.event === 'occurrence_started')).toBe(false);

    // P1 stops right before its next write; P2 takes over after the ttl; P1 resumes and writes with its old epoch.
    await p1.pauseMidWrite('write', () => p2.waitFor((line) => line.event === 'acquired' && line.epoch === Number(acquired.epoch) + 1, 20_000));
    const refused = await p1.waitFor((line) => line.event === 'write_rejected', 10_000);
    expect(refused).toMatchObject({ epoch: Number(acquired.epoch), reason: 'stale_epoch', currentEpoch: Number(acquired.epoch) + 1 });
    await p2.waitFor((line) => line.event === 'occurrence_completed', 30_000);
    const { rows } = await pool.query(`SELECT DISTINCT epoch::int FROM occurrences WHERE lease = $1 AND state = 'completed' ORDER BY 1`, [lease]);
    expect(rows.every((row: { epoch: number }) => row.epoch === Number(acquired.epoch) || row.epoch === Number(acquired.epoch) + 1)).toBe(true);
  });
});

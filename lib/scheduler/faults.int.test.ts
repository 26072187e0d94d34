import { beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { setIntent } from '../lease/intent';
import { seedDocuments } from './documents';
import { FAST_FLAGS, leaseRow, poll, summaryRow, useSchedulers } from './testing/fixtures';

// Real scheduler processes against real PostgreSQL, faults by real signals.
describe('scheduler runtime under real faults', () => {
  const pool = usePool();
  const spawnScheduler = useSchedulers(databaseUrl);
  beforeAll(() => seedDocuments(pool, 20_000));

  const leaderIs = (lease: string, token: string | null) =>
    poll(
      () => leaseRow(pool, lease),
      (row) => !!row?.live && row.holder === token,
    );
  const inFlight = (lease: string) =>
    poll(
      () => summaryRow(pool, lease),
      (row) => !!row?.in_flight && (row.cursor ?? 0) > 0,
    );

  it('a process paused past expiry has every stale write rejected at the resource, none accepted', async () => {
    const lease = uniqueLease('pause');
    const a = spawnScheduler(lease, 'A');
    await a.waitFor((line) => line.event === 'acquired');
    const b = spawnScheduler(lease, 'B');
    await b.waitFor((line) => line.event === 'held');
    let rejected = 0;
    // A pause lands inside a batch's planning work with probability ~99%; repeat (roles swap) until one did.
    for (let cycle = 0; cycle < 4 && rejected === 0; cycle++) {
      const before = await leaseRow(pool, lease);
      const owner = [a, b].find((p) => p.token === before!.holder)!;
      const other = owner === a ? b : a;
      await inFlight(lease);
      owner.signal('SIGSTOP');
      await poll(
        () => leaseRow(pool, lease),
        (row) => row!.live && row!.epoch === before!.epoch + 1 && row!.holder === other.token,
        15_000,
      );
      owner.signal('SIGCONT');
      const stopped = await owner.waitFor((line) => line.event === 'lost' && line.epoch === before!.epoch);
      expect(stopped.why).toMatch(/renewal_refused|self_suspected/);
      await owner.waitFor((line) => line.event === 'held' || line.event === 'acquired', 10_000);
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM stale_write_rejections WHERE lease = $1 AND attempted_epoch = $2', [
        lease,
        before!.epoch,
      ]);
      rejected += rows[0].n;
      const said = owner.lines.filter((line) => line.event === 'write_rejected' && line.epoch === before!.epoch).length;
      expect(said).toBe(rows[0].n);
    }
    expect(rejected).toBeGreaterThan(0);

    // No plan item carries an epoch whose tenure did not contain its write time.
    const { rows: outside } = await pool.query(
      `WITH tenure AS (
         SELECT e.epoch, e.at AS start,
                coalesce(n.previous_ended_at, CASE WHEN l.epoch = e.epoch THEN coalesce(l.released_at, l.expires_at) END) AS finish
         FROM lease_events e
         LEFT JOIN lease_events n ON n.lease = e.lease AND n.epoch = e.epoch + 1 AND n.kind <> 'released'
         JOIN leases l ON l.name = e.lease
         WHERE e.lease = $1 AND e.kind <> 'released')
       SELECT count(*)::int AS n, (SELECT count(*)::int FROM plan_items WHERE occurrence LIKE $1 || '@%') AS total
       FROM plan_items p JOIN tenure t ON t.epoch = p.epoch
       WHERE p.occurrence LIKE $1 || '@%' AND NOT (p.written_at >= t.start AND p.written_at < t.finish)`,
      [lease],
    );
    expect(outside[0].total).toBeGreaterThan(0);
    expect(outside[0].n).toBe(0);
  });

  it('SIGUSR1 freezes progress: renewals and reports go on, the cursor stays put', async () => {
    const lease = uniqueLease('freeze');
    const a = spawnScheduler(lease, 'A');
    await a.waitFor((line) => line.event === 'acquired');
    await inFlight(lease);
    a.signal('SIGUSR1');
    await a.waitFor((line) => line.event === 'frozen' && line.on === true);
    await new Promise((resolve) => setTimeout(resolve, FAST_FLAGS['batch-work'] + 300)); // let a batch in progress finish
    const lease1 = await leaseRow(pool, lease);
    const summary1 = await summaryRow(pool, lease);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const lease2 = await leaseRow(pool, lease);
    const summary2 = await summaryRow(pool, lease);
    expect(lease2!.live).toBe(true);
    expect(lease2!.epoch).toBe(lease1!.epoch);
    expect(lease2!.renewedAt).toBeGreaterThan(lease1!.renewedAt);
    expect(summary2!.last_seq).toBeGreaterThanOrEqual(summary1!.last_seq + 5);
    expect(summary2!.cursor).toBe(summary1!.cursor);
    expect(summary2!.in_flight).toBe(summary1!.in_flight);
    a.signal('SIGUSR1');
    await poll(
      () => summaryRow(pool, lease),
      (row) => row!.cursor !== summary2!.cursor,
    );
  });

  it('SIGUSR2 drops reports: when they resume, the seq stream shows the gap', async () => {
    const lease = uniqueLease('drop');
    const a = spawnScheduler(lease, 'A');
    await a.waitFor((line) => line.event === 'acquired');
    await poll(
      () => summaryRow(pool, lease),
      (row) => (row?.last_seq ?? 0) >= 3,
    );
    a.signal('SIGUSR2');
    await a.waitFor((line) => line.event === 'dropping_reports' && line.on === true);
    const dropped = await summaryRow(pool, lease);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await summaryRow(pool, lease))!.last_seq).toBe(dropped!.last_seq);
    a.signal('SIGUSR2');
    const resumed = await poll(
      () => summaryRow(pool, lease),
      (row) => row!.last_seq > dropped!.last_seq,
    );
    expect(resumed!.gap_reason).toBe('lost_reports');
    expect(resumed!.last_seq).toBeGreaterThan(dropped!.last_seq + 3);
    const { rows } = await pool.query('SELECT seq FROM progress_reports WHERE lease = $1 ORDER BY seq', [lease]);
    const seqs = rows.map((row) => row.seq as number);
    const jumps = seqs.slice(1).filter((seq, i) => seq !== seqs[i]! + 1);
    expect(jumps).toHaveLength(1);
  });

  it('an operator disabling the scheduler drains it: the occurrence finishes, the lease is released, nobody acquires until enabled', async () => {
    const lease = uniqueLease('drain');
    const quick = { 'batch-size': 2_000, 'batch-work': 10 };
    const a = spawnScheduler(lease, 'A', quick);
    await a.waitFor((line) => line.event === 'acquired');
    const b = spawnScheduler(lease, 'B', quick);
    await b.waitFor((line) => line.event === 'held');
    await setIntent(pool, lease, { disabled: true, by: 'oncall', reason: 'storage migration' });
    await a.waitFor((line) => line.event === 'draining' && line.by === 'oncall');
    await a.waitFor((line) => line.event === 'released');
    await b.waitFor((line) => line.event === 'disabled', 10_000);
    await a.waitFor((line) => line.event === 'disabled', 10_000);
    expect((await leaseRow(pool, lease))!.live).toBe(false);
    await setIntent(pool, lease, { disabled: false, by: 'oncall', reason: 'migration done' });
    await poll(
      () => leaseRow(pool, lease),
      (row) => !!row?.live,
    );
  });

  it('SIGTERM releases the lease; the other instance acquires without waiting for expiry', async () => {
    const lease = uniqueLease('term');
    const flags = { ttl: 20_000, 'renew-every': 1_000, 'renew-deadline': 5_000 };
    const a = spawnScheduler(lease, 'A', flags);
    await a.waitFor((line) => line.event === 'acquired');
    const b = spawnScheduler(lease, 'B', flags);
    await b.waitFor((line) => line.event === 'held');
    const t0 = Date.now();
    expect(await a.stop()).toBe(0);
    expect(a.lines.some((line) => line.event === 'released')).toBe(true);
    await leaderIs(lease, b.token);
    expect(Date.now() - t0).toBeLessThan(5_000); // far below the 20 s ttl
    const { rows } = await pool.query(`SELECT kind FROM lease_events WHERE lease = $1 ORDER BY id`, [lease]);
    expect(rows.map((row) => row.kind)).toEqual(['acquired', 'released', 'acquired']);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { setIntent } from '../lease';
import { seedDocuments } from '../../examples/demo/retention-planner/documents';
import { ArchiveProcess } from '../../examples/demo/archive/process';
import type { SchedulerLine, SchedulerProcess } from '../child/scheduler-process';
import { StatusService } from '../server/service';
import { kernelState } from '../child/json-line-process';
import { leaseRow, planItemsOutsideTenure, poll, summaryRow, useSchedulers } from './testing/fixtures';

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
  /** The lease's renewal time once the holder has renewed after `after` (ms). */
  const renewalAfter = async (lease: string, after: number) =>
    (await poll(
      () => leaseRow(pool, lease),
      (row) => row!.renewedAt > after,
    ))!.renewedAt;
  const inFlight = (lease: string) =>
    poll(
      () => summaryRow(pool, lease),
      (row) => !!row?.in_flight && (row.cursor ?? 0) > 0,
    );

  it('pause mid-write, every time: the stale write is refused by the database, logged and listed by the API; accepted rows lie inside their tenure', async () => {
    const lease = uniqueLease('pause');
    const a = spawnScheduler(lease, 'A');
    await a.waitFor((line) => line.event === 'acquired');
    const b = spawnScheduler(lease, 'B');
    await b.waitFor((line) => line.event === 'held');
    const service = new StatusService({ db: pool, readTimeoutMs: 2_000, pollIntervalMs: 1_000 });
    // Twice, the roles swapping: the drill lands between fence and write by construction, not by luck.
    for (let cycle = 0; cycle < 2; cycle++) {
      await inFlight(lease);
      const before = (await leaseRow(pool, lease))!;
      const owner = [a, b].find((p) => p.token === before.holder)!;
      const other = owner === a ? b : a;
      const paused = await owner.pauseMidWrite('write', async () => {
        expect(kernelState(owner.pid)).toBe('T'); // really stopped by the kernel
        await other.waitFor((line) => line.event === 'acquired' && line.epoch === before.epoch + 1, 20_000);
      });
      expect(paused).toMatchObject({ epoch: before.epoch, action: 'write', step: 'plan' });
      const refused = await owner.waitFor((line) => line.event === 'write_rejected' && line.epoch === before.epoch, 10_000);
      expect(refused).toMatchObject({ reason: 'stale_epoch', currentEpoch: before.epoch + 1 });
      const { rows } = await pool.query('SELECT reason, current_epoch::int AS current FROM stale_write_rejections WHERE lease = $1 AND attempted_epoch = $2', [
        lease,
        before.epoch,
      ]);
      expect(rows).toContainEqual({ reason: 'stale_epoch', current: before.epoch + 1 });
      const detail = await service.detail(lease);
      if (!detail.ok) throw new Error(detail.error.message);
      expect(detail.value.rejections.some((r) => r.attemptedEpoch === before.epoch && r.reason === 'stale_epoch')).toBe(true);
      await owner.waitFor((line) => line.event === 'held' && line.epoch === before.epoch + 1, 10_000);
    }
    const tenure = await planItemsOutsideTenure(pool, lease);
    expect(tenure.total).toBeGreaterThan(0);
    expect(tenure.outside).toBe(0);
  });

  it('pause mid-call: the resumed holder’s archive call gets 409, and no key keeps a refused epoch’s data', async () => {
    const archive = await ArchiveProcess.start();
    try {
      const lease = uniqueLease('archive');
      const quick = { 'batch-size': 2_000, 'batch-work': 100 };
      const options = { options: { 'archive-url': archive.url }, env: { LEASEBOARD_ARCHIVE_TOKEN: archive.token } };
      const a = spawnScheduler(lease, 'A', quick, options);
      const { epoch } = (await a.waitFor((line) => line.event === 'acquired')) as { epoch: number } & SchedulerLine;
      // Armed before the first occurrence reaches its export step (ten batches of planning away).
      let b: SchedulerProcess | null = null;
      const pausing = a.pauseMidWrite('call', () => b!.waitFor((line) => line.event === 'call_accepted' && line.epoch === epoch + 1, 30_000));
      b = spawnScheduler(lease, 'B', quick, options);
      // The new holder resumes the occurrence at its export step and exports it first; then A resumes.
      await pausing;
      const refused = await a.waitFor((line) => line.event === 'write_rejected' && line.resource === 'archive', 10_000);
      expect(refused).toMatchObject({ epoch, reason: 'stale_epoch', currentEpoch: epoch + 1 });
      // Every stale call got 409: the archive's refusals are exactly the resumed holder's.
      const decisions = archive.process.lines.filter((line) => line.event === 'accepted' || line.event === 'rejected');
      const stale = decisions.filter((line) => line.event === 'rejected');
      expect(stale.length).toBeGreaterThan(0);
      expect(stale.every((line) => line.epoch === epoch && line.highestEpoch === epoch + 1)).toBe(true);
      expect(a.lines.filter((line) => line.event === 'write_rejected' && line.resource === 'archive')).toHaveLength(stale.length);
      // Each key holds the data of the newest epoch that wrote it, never a refused one.
      const listed = (await (await fetch(`${archive.url}/v1/leases/${lease}/objects`)).json()) as {
        highestEpoch: number;
        objects: { key: string; epoch: number }[];
      };
      expect(listed.highestEpoch).toBe(epoch + 1);
      for (const object of listed.objects) {
        const newest = Math.max(...decisions.filter((line) => line.key === object.key && line.event === 'accepted').map((line) => Number(line.epoch)));
        expect(object.epoch).toBe(newest);
      }
      // The refused key: exported by the new holder (or, had a new slot begun meanwhile, by nobody).
      const kept = listed.objects.find((object) => object.key === stale[0]!.key);
      expect(kept === undefined || kept.epoch === epoch + 1).toBe(true);
      const { rows } = await pool.query('SELECT resource, attempted_epoch::int AS attempted FROM stale_write_rejections WHERE lease = $1', [lease]);
      expect(rows).toContainEqual({ resource: 'archive', attempted: epoch });
    } finally {
      await archive.process.stop();
    }
  });

  it('SIGUSR1 freezes progress: renewals and reports go on, the cursor stays put', async () => {
    const lease = uniqueLease('freeze');
    const a = spawnScheduler(lease, 'A');
    await a.waitFor((line) => line.event === 'acquired');
    await inFlight(lease);
    a.signal('SIGUSR1');
    await a.waitFor((line) => line.event === 'frozen' && line.on === true);
    // A batch under way when the freeze began may still finish: settled once the cursor has stayed put
    // over four reports in a row (a second of the scheduler's own reporting, past a batch's work).
    let watched = (await summaryRow(pool, lease))!;
    const summary1 = await poll(
      () => summaryRow(pool, lease),
      (row) => {
        if (row!.cursor !== watched.cursor) watched = row!;
        return row!.last_seq >= watched.last_seq + 4;
      },
    );
    const lease1 = await leaseRow(pool, lease);
    // Then renewals and reports go on: five reports and two renewals later, the cursor is where it was.
    await renewalAfter(lease, await renewalAfter(lease, lease1!.renewedAt));
    const lease2 = await leaseRow(pool, lease);
    const summary2 = await poll(
      () => summaryRow(pool, lease),
      (row) => row!.last_seq >= summary1!.last_seq + 5,
    );
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
    // While dropping, the holder still renews: two renewals later (a renewal interval, four report intervals), no report landed.
    await renewalAfter(lease, await renewalAfter(lease, (await leaseRow(pool, lease))!.renewedAt));
    expect((await summaryRow(pool, lease))!.last_seq).toBe(dropped!.last_seq);
    a.signal('SIGUSR2');
    const resumed = await poll(
      () => summaryRow(pool, lease),
      (row) => row!.last_seq > dropped!.last_seq,
    );
    expect(resumed!.gap_reason).toBe('lost_reports');
    expect(resumed!.last_seq).toBeGreaterThan(dropped!.last_seq + 3);
    // Every report's seq, its run expanded (migration 0025_report_runs).
    const { rows } = await pool.query('SELECT generate_series(seq, COALESCE(last_seq, seq)) AS seq FROM progress_reports WHERE lease = $1 ORDER BY seq', [
      lease,
    ]);
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

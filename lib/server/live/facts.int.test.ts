// The live read on real PostgreSQL: facts written by the real writers →
// lib/status projection, and a query count independent of the report count.
import { describe, expect, it } from 'vitest';
import { forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { fenceFor, LeaseAuthority, occurrenceKey, setIntent, writeFenced } from '../../lease';
import { StatusService } from '../service';
import { claimOccurrence, completeOccurrence } from '../../scheduler/occurrences';
import { acquire, countingDb, register, reporter, serviceOn, sleep } from '../testing/seed';
import { answersOf } from '../testing/answers';

/** A live read: the facts (one statement, ./facts-sql.ts) and the replication state (./durability.ts). */
const STATEMENTS_PER_READ = 2;

/**
 * Reports every 50 ms (one at a time, so seqs stay in order) until a read is done: however long a loaded
 * machine takes over the read, the last report is never further from it than the silence bound.
 */
function reportingEvery50ms(r: ReturnType<typeof reporter>) {
  let reporting = true;
  const loop = (async () => {
    while (reporting) {
      await r.report(null, null);
      await sleep(50);
    }
  })();
  return {
    async whileReading<T>(read: () => Promise<T>): Promise<T> {
      try {
        return await read();
      } finally {
        reporting = false;
        await loop;
      }
    },
  };
}

describe('status list read (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);

  async function statusOf(name: string) {
    const list = await service.list({ q: name });
    expect(list.observation.ok).toBe(true);
    const status = list.schedulers.find((s) => s.name === name);
    if (!status) throw new Error(`${name} not listed`);
    return status;
  }

  /** Reads until `name`'s work is stalled for `code` (the database clock decides when), polling: no fixed wait. */
  async function untilStalledFor(name: string, code: string) {
    const stalledFor = async () => {
      const status = await statusOf(name);
      return status.work.state === 'stalled' && status.reasons.some((x) => x.code === code);
    };
    await expect.poll(stalledFor, { timeout: 15_000, interval: 100 }).toBe(true);
  }

  it('a holder whose cursor moves is progressing', async () => {
    const name = uniqueLease('progress');
    await register(pool, name);
    const grant = await acquire(pool, name);
    const r = reporter(pool, grant);
    await r.report(`${name}@2026-01-01T00:00:00Z`, 1);
    await r.report(`${name}@2026-01-01T00:00:00Z`, 2);
    const status = await statusOf(name);
    expect(status.health).toBe('progressing');
    expect(status.authority).toMatchObject({ state: 'held', holder: grant.holder, epoch: grant.epoch, atRisk: false });
    expect(status.work).toMatchObject({ state: 'progressing', cursor: 2 });
  });

  it('a holder that renews while its cursor is frozen is stalled once the stall window passes', async () => {
    const name = uniqueLease('stall');
    await register(pool, name, { stallAfterMs: 400, reportEveryMs: 100 });
    const grant = await acquire(pool, name);
    const authority = new LeaseAuthority(pool);
    const r = reporter(pool, grant, 100);
    const occurrence = `${name}@2026-01-01T00:00:00Z`;
    await r.report(occurrence, 7);
    expect((await statusOf(name)).health).toBe('progressing');
    for (let i = 0; i < 8; i++) {
      await sleep(80);
      expect((await authority.renew(grant)).kind).toBe('renewed');
      await r.report(occurrence, 7);
    }
    const status = await statusOf(name);
    expect(status.health).toBe('stalled');
    expect(status.authority.state).toBe('held');
    expect(status.work).toMatchObject({ state: 'stalled', occurrence, cursor: 7 });
    expect(status.reasons.map((x) => x.code)).toContain('work_stalled');
  });

  it('an expired or released lease has no leader; a never-held registered scheduler too', async () => {
    const expired = uniqueLease('expired');
    const grant = await acquire(pool, expired);
    await reporter(pool, grant).report(null, null);
    await forceExpire(pool, expired);
    const e = await statusOf(expired);
    expect(e).toMatchObject({ health: 'no_leader', authority: { state: 'expired' }, work: { state: 'none' } });

    const released = uniqueLease('released');
    const g2 = await acquire(pool, released);
    expect((await new LeaseAuthority(pool).release(g2)).kind).toBe('released');
    expect(await statusOf(released)).toMatchObject({ health: 'no_leader', authority: { state: 'released' } });

    const never = uniqueLease('never');
    await register(pool, never);
    expect(await statusOf(never)).toMatchObject({ health: 'no_leader', authority: { state: 'none' } });
  });

  it('an operator-disabled scheduler is disabled, with the intent shown', async () => {
    const name = uniqueLease('disabled');
    await register(pool, name);
    await setIntent(pool, name, { disabled: true, by: 'sre-on-call', reason: 'maintenance window' });
    const status = await statusOf(name);
    expect(status.health).toBe('disabled');
    expect(status.intent).toMatchObject({ disabled: true, by: 'sre-on-call', reason: 'maintenance window' });
  });

  it('maps the due occurrence: nothing in flight and the first slot since registration unstarted past overdueAfter → stalled (overdue)', async () => {
    const name = uniqueLease('overdue');
    await register(pool, name, { everyMs: 200, stallAfterMs: 1_000, reportEveryMs: 200, overdueAfterMs: 0 });
    const grant = await acquire(pool, name);
    const reports = reportingEvery50ms(reporter(pool, grant, 200));
    await untilStalledFor(name, 'work_overdue');
    const status = await reports.whileReading(() => statusOf(name));
    expect(status.work.state).toBe('stalled');
    expect(status.reasons.map((x) => x.code)).toContain('work_overdue');
  });

  it('a holder stuck between occurrences: the slot after the last one is due, and its age grows into overdue', async () => {
    const name = uniqueLease('between');
    await register(pool, name, { everyMs: 1_000, stallAfterMs: 1_000, reportEveryMs: 200, overdueAfterMs: 200 });
    const grant = await acquire(pool, name);
    const fence = fenceFor({ name, epoch: grant.epoch });
    const slot = new Date(Math.floor(Date.now() / 1_000) * 1_000 - 1_000);
    const key = occurrenceKey(name, slot);
    expect((await claimOccurrence(pool, fence, key, slot)).kind).toBe('claimed');
    expect((await writeFenced(pool, fence, (w) => [completeOccurrence(w, key)])).kind).toBe('written');
    // Alive and reporting — and never starting the next occurrence.
    const reports = reportingEvery50ms(reporter(pool, grant, 200));
    // A fixed wait: the as-of rebuild below reads an instant 50 ms before the live read, which must be overdue too.
    await sleep(1_500);
    const status = await reports.whileReading(() => statusOf(name));
    expect(status.work.state).toBe('stalled');
    expect(status.reasons.find((x) => x.code === 'work_overdue')?.message).toContain(occurrenceKey(name, new Date(slot.getTime() + 1_000)));
    // The as-of rebuild from the logs judges the same instant the same way.
    const { rows } = await pool.query(
      `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC' - interval '50 milliseconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`,
    );
    const asOf = await answersOf(serviceOn(pool)).detail(name, rows[0].at);
    if (!asOf.ok) throw new Error(asOf.error.message);
    expect(asOf.value.status.work.state).toBe('stalled');
  });

  it('reads with one facts statement however many reports are stored (and one of the replication state: what protects the authority)', async () => {
    const name = uniqueLease('count');
    await register(pool, name);
    const grant = await acquire(pool, name);
    const r = reporter(pool, grant);
    await r.report(null, null);
    const counted = countingDb(pool);
    const counting = serviceOn(counted);
    await counting.list();
    expect(counted.count).toBe(STATEMENTS_PER_READ);
    for (let i = 0; i < 300; i++) await r.report(`${name}@x`, i);
    for (let i = 0; i < 5; i++) await acquire(pool, uniqueLease('count-more'));
    counted.count = 0;
    const list = await counting.list({ q: name });
    expect(counted.count).toBe(STATEMENTS_PER_READ);
    expect(list.schedulers[0]?.work.cursor).toBe(299);
  });

  it('shares one read for listMaxAgeMs, refreshing it in the background past half that age; `fresh` and an expired window read again', async () => {
    const counted = countingDb(pool);
    let mono = 0;
    const shared = new StatusService({ db: counted, readTimeoutMs: 2_000, pollIntervalMs: 2_000, listMaxAgeMs: 1_000, monotonicMs: () => mono });
    const a = await shared.list();
    mono = 400;
    expect((await shared.list({ limit: 1 })).observedAt).toBe(a.observedAt);
    expect(counted.count).toBe(STATEMENTS_PER_READ);
    mono = 900; // past half its life: served at once, refreshed behind the caller
    expect((await shared.list()).observedAt).toBe(a.observedAt);
    await shared.live({ fresh: true }); // joins the background refresh (single-flight)
    expect(counted.count).toBe(2 * STATEMENTS_PER_READ);
    await shared.list({}, { fresh: true });
    expect(counted.count).toBe(3 * STATEMENTS_PER_READ);
    mono = 5_000;
    await shared.list();
    expect(counted.count).toBe(4 * STATEMENTS_PER_READ);
  });
});

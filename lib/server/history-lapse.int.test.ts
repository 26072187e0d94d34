// History tells the truth about a lapse: from a tenure's last renewal to its
// end (expiry and takeover, or release) nobody renewed, and the renewal-age
// series climbs through that span — past ttl in the bucket of the expiry.
import { describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../db/testing/pools';
import { LeaseAuthority } from '../lease';
import { poll } from '../scheduler/testing/fixtures';
import { acquire, register, serviceOn, sleep } from './testing/seed';
import { dbNow } from './testing/scenario';
import { answersOf } from './testing/answers';

const TTL = 1_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('renewal age across the end of a tenure (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  const authority = new LeaseAuthority(pool);
  const ms = async (sql: string, values: unknown[]) => Number((await pool.query(sql, values)).rows[0].ms);
  const bucketAt = (h: { bucketMs: number; buckets: { t: string; renewalAgeMaxMs: number | null }[] }, at: number) =>
    h.buckets.find((b) => Date.parse(b.t) <= at && at < Date.parse(b.t) + h.bucketMs)!;
  const expired = (name: string) =>
    poll(async () => (await pool.query('SELECT expires_at <= clock_timestamp() AS over FROM leases WHERE name = $1', [name])).rows[0].over, Boolean, 5_000, 20);

  it('a tenure that ended by expiry reaches at least ttl in the bucket of the expiry, and more by the takeover', async () => {
    const name = uniqueLease('lapse');
    await register(pool, name);
    const start = await dbNow(pool);
    const grant = await acquire(pool, name, TTL);
    for (let i = 0; i < 3; i++) {
      await sleep(150); // renewals every 150 ms: gaps well below ttl
      expect((await authority.renew(grant)).kind).toBe('renewed');
    }
    await expired(name);
    await sleep(300); // a visible span with nobody holding the lease
    await acquire(pool, name, 15_000, 'B');
    const end = await dbNow(pool);
    const lastRenewal = await ms(`SELECT extract(epoch FROM last_renewed_at) * 1000 AS ms FROM lease_events WHERE lease = $1 AND epoch = 2`, [name]);
    const expiry = await ms(`SELECT extract(epoch FROM previous_ended_at) * 1000 AS ms FROM lease_events WHERE lease = $1 AND epoch = 2`, [name]);
    const takeover = await ms(`SELECT extract(epoch FROM at) * 1000 AS ms FROM lease_events WHERE lease = $1 AND epoch = 2`, [name]);
    expect(expiry - lastRenewal).toBeCloseTo(TTL, 0);

    const result = await answersOf(service).history(name, iso(start), iso(end));
    if (!result.ok) throw new Error(result.error.message);
    const h = result.value;
    expect(bucketAt(h, expiry).renewalAgeMaxMs).toBeGreaterThanOrEqual(TTL);
    expect(bucketAt(h, takeover - 1).renewalAgeMaxMs).toBeGreaterThanOrEqual(Math.floor(takeover - 1 - lastRenewal));
    // While renewals came, the age stayed far below ttl; the series climbs only after the last one.
    const steady = h.buckets.filter((b) => Date.parse(b.t) + h.bucketMs <= lastRenewal && b.renewalAgeMaxMs !== null);
    expect(steady.length).toBeGreaterThan(0);
    expect(Math.max(...steady.map((b) => b.renewalAgeMaxMs!))).toBeLessThan(TTL / 2 + 100);
    // The span between expiry and takeover has no leader, and the epoch change is there.
    expect(h.segments.some((x) => x.health === 'no_leader' && Date.parse(x.from) <= expiry + h.bucketMs && Date.parse(x.to) >= takeover - h.bucketMs)).toBe(
      true,
    );
    expect(h.tenures.map((t) => [t.epoch, t.ended])).toEqual([
      [1, 'expired'],
      [2, null],
    ]);
  });

  it('an expired lease nobody took over climbs until now; a release ends the climb at the release', async () => {
    const lapsed = uniqueLease('lapsed');
    await register(pool, lapsed);
    const start = await dbNow(pool);
    await acquire(pool, lapsed, TTL);
    await expired(lapsed);
    await sleep(200);
    const now = await dbNow(pool);
    const open = await answersOf(service).history(lapsed, iso(start), iso(now));
    if (!open.ok) throw new Error(open.error.message);
    expect(open.value.buckets.at(-1)!.renewalAgeMaxMs).toBeGreaterThanOrEqual(TTL + 150);

    const released = uniqueLease('released');
    await register(pool, released);
    const from = await dbNow(pool);
    const grant = await acquire(pool, released, 15_000);
    await sleep(100);
    expect((await authority.renew(grant)).kind).toBe('renewed'); // a rollup row for this minute, flushed at the release
    await sleep(300);
    expect((await authority.release(grant)).kind).toBe('released');
    await sleep(200);
    const to = await dbNow(pool);
    const releasedAt = await ms(`SELECT extract(epoch FROM at) * 1000 AS ms FROM lease_events WHERE lease = $1 AND kind = 'released'`, [released]);
    const h = await answersOf(service).history(released, iso(from), iso(to));
    if (!h.ok) throw new Error(h.error.message);
    expect(bucketAt(h.value, releasedAt - 1).renewalAgeMaxMs).toBeGreaterThanOrEqual(250);
    // After the release nobody holds it: no climb, and the minute's rollup stays inside the tenure.
    expect(h.value.buckets.at(-1)!.renewalAgeMaxMs).toBeNull();
  });
});

// The ttl range in its two places agrees: the lease configuration
// (lib/lease/config.ts) and the CHECK on leases.ttl_ms, both from
// LEASE_TTL_RANGE_MS (db/schema.ts). Given rows written by plain SQL with a
// ttl at and around each limit, the database refuses exactly those the
// configuration refuses.
import { describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../db/testing/pools';
import { LeaseAuthority } from './authority';
import { LeaseConfigError, leaseTerms, TTL_CEILING_MS, TTL_FLOOR_MS } from './config';
import { newInstanceToken } from './token';

describe('lease ttl: one range, in TypeScript and in the database', () => {
  const pool = usePool();

  /** Whether the configuration takes `ttlMs`, and whether the database takes a row with it. */
  async function both(ttlMs: number): Promise<{ ttlMs: number; config: boolean; database: boolean }> {
    let config = true;
    try {
      leaseTerms({ name: 'x', ttlMs });
    } catch (error) {
      if (!(error instanceof LeaseConfigError)) throw error;
      config = false;
    }
    let database = true;
    try {
      await pool.query(
        `INSERT INTO leases (name, holder, epoch, acquired_at, renewed_at, expires_at, ttl_ms)
         VALUES ($1, 'inst_00000000', 1, clock_timestamp(), clock_timestamp(), clock_timestamp(), $2)`,
        [uniqueLease('ttl'), ttlMs],
      );
    } catch (error) {
      expect(error).toMatchObject({ code: '23514', constraint: 'leases_ttl_range' });
      database = false;
    }
    return { ttlMs, config, database };
  }

  it('refuses exactly the same ttls at and around each limit', async () => {
    const ttls = [0, TTL_FLOOR_MS - 1, TTL_FLOOR_MS, 15_000, TTL_CEILING_MS, TTL_CEILING_MS + 1];
    const results = [];
    for (const ttlMs of ttls) results.push(await both(ttlMs));
    for (const r of results) expect(r.database, `ttl ${r.ttlMs} ms`).toBe(r.config);
    expect(results.map((r) => r.config)).toEqual([false, false, true, true, true, false]);
  });

  it('a grant at each limit goes through the authority; a renewal keeps the ttl', async () => {
    const authority = new LeaseAuthority(pool);
    for (const ttlMs of [TTL_FLOOR_MS, TTL_CEILING_MS]) {
      const name = uniqueLease('ttl');
      const holder = newInstanceToken();
      const granted = await authority.acquire(leaseTerms({ name, ttlMs }), holder);
      if (granted.kind !== 'acquired') throw new Error(granted.kind);
      expect((await authority.renew({ name, holder, epoch: granted.epoch })).kind).toBe('renewed');
      expect((await authority.read(name))?.ttlMs).toBe(ttlMs);
    }
  });
});

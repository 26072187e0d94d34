// The epoch rule in its two forms (lib/status/epoch.ts, migration failover_generation), held equal;
// what a grant records of the epoch it ended; and a timeline that restarted below the epochs granted.
import { describe, expect, it } from 'vitest';
import { forceExpire, uniqueLease, usePool } from '../../db/testing/pools';
import { EPOCH_SPAN, epochAfter, formatEpoch } from '../status/epoch';
import { LeaseAuthority } from './authority';
import { leaseTerms } from './config';
import { newInstanceToken } from './token';

const TTL = 15_000;

describe('epochs: generation and tenure', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  it('SQL leaseboard_epoch_after and TypeScript epochAfter agree, refusals included', async () => {
    const cases: [number | null, number][] = [
      [null, 0],
      [null, 3],
      [1, 0],
      [41, 0],
      [41, 1],
      [EPOCH_SPAN + 7, 1],
      [EPOCH_SPAN + 7, 4],
      [4 * EPOCH_SPAN + 1, 2],
      [2 * EPOCH_SPAN - 1, 1],
      [9_007_198 * EPOCH_SPAN + 3, 9_007_198],
    ];
    for (const [previous, generation] of cases) {
      const expected = epochAfter(previous, generation);
      const sql = pool.query<{ epoch: string }>('SELECT leaseboard_epoch_after($1, $2) AS epoch', [previous, generation]);
      if (expected.kind === 'epoch') expect(Number((await sql).rows[0]!.epoch), `${previous} in ${generation}`).toBe(expected.epoch);
      else await expect(sql, `${previous} in ${generation}`).rejects.toMatchObject({ code: 'LB003' });
    }
  });

  it('a database that never failed over is generation 0: epochs 1, 2, 3 … read as before', async () => {
    const { rows } = await pool.query<{ generation: string; timeline: string }>(
      'SELECT leaseboard_generation() AS generation, leaseboard_timeline() AS timeline',
    );
    expect(rows[0]).toEqual({ generation: '0', timeline: '1' });
    const name = uniqueLease();
    const first = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken());
    expect(first).toMatchObject({ kind: 'acquired', epoch: 1 });
    expect(formatEpoch(1)).toBe('1');
    expect(formatEpoch(3 * EPOCH_SPAN + 17)).toBe('gen 3 · 17');
  });

  it('a grant records the epoch it ended, whatever its number', async () => {
    const name = uniqueLease();
    await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken());
    // As if the lease had been granted on a later timeline (generation 0 here: the next grant is its + 1).
    await pool.query('UPDATE leases SET epoch = 41 WHERE name = $1', [name]);
    await forceExpire(pool, name);
    expect(await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).toMatchObject({ kind: 'acquired', epoch: 42 });
    const { rows } = await pool.query(
      'SELECT kind, epoch::float8 AS epoch, previous_epoch::float8 AS previous FROM lease_events WHERE lease = $1 ORDER BY id',
      [name],
    );
    expect(rows).toEqual([
      { kind: 'acquired', epoch: 1, previous: null },
      { kind: 'taken_over', epoch: 42, previous: 41 },
    ]);
  });

  it('after a timeline restart below the epochs granted (pg_upgrade), grants refuse until the migrator aligns the generation', async () => {
    const name = uniqueLease();
    await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken());
    const ahead = 5 * EPOCH_SPAN + 9;
    await pool.query('UPDATE leases SET epoch = $2 WHERE name = $1', [name, ahead]);
    await forceExpire(pool, name);
    await expect(authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).rejects.toMatchObject({ cause: { code: 'LB003' } });
    try {
      const { rows } = await pool.query<{ generation: string }>('SELECT leaseboard_align_generation() AS generation');
      expect(Number(rows[0]!.generation)).toBe(5);
      expect(await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).toMatchObject({ kind: 'acquired', epoch: ahead + 1 });
      // Aligning again changes nothing.
      expect((await pool.query('SELECT leaseboard_align_generation() AS g')).rows[0]).toEqual({ g: '5' });
    } finally {
      // The run's other tests expect generation 0: give the database back its base and this lease.
      await pool.query('UPDATE leaseboard_generation_base SET base = 0');
      await pool.query('UPDATE leases SET epoch = 1 WHERE name = $1', [name]);
    }
  });
});

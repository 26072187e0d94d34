import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../db/testing/pools';
import { LeaseAuthority } from './authority';
import { leaseTerms } from './config';
import { setIntent } from './intent';
import { PlainSqlClient } from './testing/plain-sql-client';
import { newInstanceToken } from './token';

// The lease core, run both ways: through the library (LeaseAuthority) and through the SQL
// functions called as any other language calls them (./testing/plain-sql-client.ts). One
// implementation of each rule: the same answers either way, and in the race both kinds of client
// compete for the same lease.
const TTL = 15_000;

type Client = Pick<LeaseAuthority, 'acquire' | 'renew' | 'release'>;
const CLIENTS: [string, (db: pg.ClientBase | pg.Pool) => Client][] = [
  ['the library', (db) => new LeaseAuthority(db)],
  ['the SQL functions called directly', (db) => new PlainSqlClient(db)],
];

describe('lease authority on real PostgreSQL', () => {
  const pool = usePool();
  const library = new LeaseAuthority(pool);

  describe('atomic acquisition under competition', () => {
    const racers: pg.Client[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 20; i++) {
        const client = new pg.Client({ connectionString: databaseUrl(), application_name: 'leaseboard-test-racer' });
        await client.connect();
        racers.push(client);
      }
    });
    afterAll(() => Promise.all(racers.map((client) => client.end())));

    it('1,000 rounds of 20 connections racing for one expired lease, half through the library and half calling the SQL functions: one winner per round, epochs contiguous', async () => {
      const name = uniqueLease('race');
      const tokens = racers.map(() => newInstanceToken());
      const authorities = racers.map((client, i) => CLIENTS[i % 2]![1](client));
      const winners: number[] = [];
      for (let round = 0; round < 1000; round++) {
        if (round > 0) await forceExpire(pool, name);
        const results = await Promise.all(authorities.map((a, i) => a.acquire(leaseTerms({ name, ttlMs: TTL }), tokens[i]!)));
        const won = results.filter((r) => r.kind === 'acquired');
        expect(won, `round ${round}`).toHaveLength(1);
        // Every loser is told who holds it: the library always (it reads the row again when the function's row
        // cannot say); a direct caller may hear `changed` (refused, holder unknown: try again), never a grant.
        const library = results.filter((_, i) => i % 2 === 0);
        expect(library.filter((r) => r.kind !== 'acquired' && r.kind !== 'held')).toEqual([]);
        expect(results.filter((r) => r.kind !== 'acquired' && r.kind !== 'held' && r.kind !== 'changed')).toEqual([]);
        winners.push((won[0] as { epoch: number }).epoch);
      }
      expect(winners).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      const events = await pool.query<{ epoch: string; kind: string }>('SELECT epoch, kind FROM lease_events WHERE lease = $1 ORDER BY id', [name]);
      expect(events.rows.map((e) => Number(e.epoch))).toEqual(winners);
      expect(events.rows.slice(1).every((e) => e.kind === 'taken_over')).toBe(true);
      // 21,000 acquisitions: 85 s at a load average of 9, 115 s at 17 (two cores). The bound catches a hang, not slowness.
    }, 300_000);
  });

  describe.each(CLIENTS)('through %s', (_, clientOf) => {
    const authority = clientOf(pool);

    async function acquired(name: string, holder = newInstanceToken()) {
      const result = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), holder, 'A');
      if (result.kind !== 'acquired') throw new Error(`expected acquired, got ${result.kind}`);
      return { name, holder, epoch: result.epoch };
    }

    describe('renewal', () => {
      it('renews only for the current holder and epoch, and never changes the epoch', async () => {
        const grant = await acquired(uniqueLease());
        const renewed = await authority.renew(grant);
        expect(renewed.kind).toBe('renewed');
        expect(await authority.renew({ ...grant, holder: newInstanceToken() })).toEqual({ kind: 'lost' });
        expect(await authority.renew({ ...grant, epoch: grant.epoch + 1 })).toEqual({ kind: 'lost' });
        expect(await authority.renew({ ...grant, epoch: grant.epoch - 1 })).toEqual({ kind: 'lost' });
        const row = await library.read(grant.name);
        expect(row?.epoch).toBe(grant.epoch);
        expect(row?.holder).toBe(grant.holder);
      });

      it('refuses a renewal after expiry, even by the holder', async () => {
        const grant = await acquired(uniqueLease());
        await forceExpire(pool, grant.name);
        expect(await authority.renew(grant)).toEqual({ kind: 'lost' });
        expect((await library.read(grant.name))?.epoch).toBe(grant.epoch);
      });

      it('keeps a bounded renewal-gap rollup, flushed when the tenure ends', async () => {
        const grant = await acquired(uniqueLease());
        for (let i = 0; i < 3; i++) {
          await new Promise((resolve) => setTimeout(resolve, 30));
          expect((await authority.renew(grant)).kind).toBe('renewed');
        }
        expect((await authority.release(grant)).kind).toBe('released');
        const { rows } = await pool.query(
          `SELECT h.epoch::int, sum(h.renewals)::int AS renewals, max(m.gap) AS gap
           FROM renewal_gap_hours h CROSS JOIN LATERAL (SELECT max(g) AS gap FROM unnest(h.max_gap_ms) g) m WHERE h.lease = $1 GROUP BY h.epoch`,
          [grant.name],
        );
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ epoch: grant.epoch, renewals: 3 });
        expect(rows[0].gap).toBeGreaterThanOrEqual(25);
        expect(rows[0].gap).toBeLessThan(5_000);
      });

      it('extends expires_at on the database clock', async () => {
        const grant = await acquired(uniqueLease());
        const before = await library.read(grant.name);
        // Until the database clock has reached the next millisecond after the last renewal (expires_at − ttl).
        await vi.waitFor(async () => {
          const { rows } = await pool.query(`SELECT clock_timestamp() >= $1::timestamptz + interval '1 millisecond' AS later`, [
            new Date(before!.expiresAt.getTime() - TTL),
          ]);
          expect(rows[0].later).toBe(true);
        });
        const renewed = await authority.renew(grant);
        if (renewed.kind !== 'renewed') throw new Error(renewed.kind);
        expect(renewed.expiresAt.getTime()).toBeGreaterThan(before!.expiresAt.getTime());
        expect(renewed.expiresAt.getTime() - renewed.renewedAt.getTime()).toBe(TTL);
      });
    });

    describe('takeover and release', () => {
      it('takeover after expiry increments the epoch by exactly one and logs the previous end', async () => {
        const first = await acquired(uniqueLease());
        const other = newInstanceToken();
        expect((await authority.acquire(leaseTerms({ name: first.name, ttlMs: TTL }), other)).kind).toBe('held');
        await forceExpire(pool, first.name);
        const second = await acquired(first.name, other);
        expect(second.epoch).toBe(first.epoch + 1);
        const { rows } = await pool.query(
          'SELECT kind, previous_epoch, previous_holder, previous_ended_at, last_renewed_at FROM lease_events WHERE lease = $1 ORDER BY id',
          [first.name],
        );
        expect(rows.map((r) => r.kind)).toEqual(['acquired', 'taken_over']);
        expect(Number(rows[1].previous_epoch)).toBe(first.epoch);
        expect(rows[1].previous_holder).toBe(first.holder);
        expect(rows[1].previous_ended_at).toBeInstanceOf(Date);
        // Where the previous tenure's final renewal gap began: its last renewal (here, its grant).
        const granted = await pool.query('SELECT at FROM lease_events WHERE lease = $1 AND epoch = $2', [first.name, first.epoch]);
        expect(rows[1].last_renewed_at).toEqual(granted.rows[0].at);
      });

      it('release keeps the row; acquiring again increments the epoch', async () => {
        const grant = await acquired(uniqueLease());
        const released = await authority.release(grant);
        expect(released.kind).toBe('released');
        const row = await library.read(grant.name);
        expect(row).toMatchObject({ epoch: grant.epoch, holder: grant.holder, live: false });
        expect(row?.releasedAt).toBeInstanceOf(Date);
        expect(await authority.renew(grant)).toEqual({ kind: 'lost' });
        expect(await authority.release(grant)).toEqual({ kind: 'not_held' });
        const next = await acquired(grant.name);
        expect(next.epoch).toBe(grant.epoch + 1);
        const { rows } = await pool.query('SELECT kind FROM lease_events WHERE lease = $1 ORDER BY id', [grant.name]);
        expect(rows.map((r) => r.kind)).toEqual(['acquired', 'released', 'acquired']);
      });

      it('an acquire whose outcome was unknown is recognised: the same token sees held_by_self', async () => {
        const grant = await acquired(uniqueLease());
        expect(await authority.acquire(leaseTerms({ name: grant.name, ttlMs: TTL }), grant.holder)).toMatchObject({ kind: 'held_by_self', epoch: grant.epoch });
      });
    });

    describe('operator intent', () => {
      it('a disabled lease cannot be acquired, and only an explicit intent change enables it', async () => {
        const name = uniqueLease();
        await setIntent(pool, name, { disabled: true, by: 'oncall', reason: 'storage migration' });
        expect(await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).toEqual({
          kind: 'disabled',
          by: 'oncall',
          reason: 'storage migration',
        });
        // Time passing, retries and releases change nothing.
        for (let i = 0; i < 5; i++) expect((await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).kind).toBe('disabled');
        await setIntent(pool, name, { disabled: false, by: 'oncall', reason: 'migration done' });
        expect((await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).kind).toBe('acquired');
        const audit = await pool.query('SELECT disabled, by, reason FROM intent_audit WHERE lease = $1 ORDER BY id', [name]);
        expect(audit.rows).toEqual([
          { disabled: true, by: 'oncall', reason: 'storage migration' },
          { disabled: false, by: 'oncall', reason: 'migration done' },
        ]);
      });

      it('refuses an intent change without who and why', async () => {
        await expect(setIntent(pool, uniqueLease(), { disabled: true, by: ' ', reason: 'x' })).rejects.toThrow(/by/);
      });
    });
  });
});

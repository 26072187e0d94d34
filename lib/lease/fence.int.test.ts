import { eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createReadOnlyPool } from '../../db/pool';
import { documents, planItems } from '../../examples/demo/db/schema';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../db/testing/pools';
import { poll } from '../scheduler/testing/fixtures';
import { LeaseAuthority } from './authority';
import { leaseTerms, TTL_FLOOR_MS } from './config';
import { FENCE_MISSING, FENCE_REFUSED, fenceFor } from './fence';
import { writeFenced } from './fenced-write';
import { completeOccurrence } from '../scheduler/occurrences';
import { newInstanceToken } from './token';

const TTL = 15_000;

describe('the fence, enforced by the database', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  async function grant(name = uniqueLease()) {
    const holder = newInstanceToken();
    const result = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), holder);
    if (result.kind !== 'acquired') throw new Error(result.kind);
    return { name, holder, epoch: result.epoch };
  }
  /** epoch 1 taken over by epoch 2. */
  async function takenOver() {
    const old = await grant();
    await forceExpire(pool, old.name);
    return { old, current: await grant(old.name) };
  }
  const items = (occurrence: string) =>
    pool.query<{ id: number; epoch: number; lease: string }>(
      'SELECT document_id::int AS id, epoch::int, lease FROM leaseboard_demo.plan_items WHERE occurrence = $1 ORDER BY 1',
      [occurrence],
    );
  const insertItem = (lease: string, epoch: number, occurrence: string, id: number) =>
    pool.query(
      `INSERT INTO leaseboard_demo.plan_items (occurrence, document_id, policy, lease, epoch, written_at) VALUES ($1, $2, 'short', $3, $4, clock_timestamp())`,
      [occurrence, id, lease, epoch],
    );

  describe('plain SQL that bypasses the library', () => {
    it('a stale epoch is refused and writes nothing; the current epoch is accepted', async () => {
      const { old, current } = await takenOver();
      const occurrence = `${old.name}@x`;
      await expect(insertItem(old.name, old.epoch, occurrence, 1)).rejects.toMatchObject({
        code: FENCE_REFUSED,
        message: expect.stringMatching(/stale_epoch/),
      });
      await insertItem(old.name, current.epoch, occurrence, 2);
      expect((await items(occurrence)).rows).toEqual([{ id: 2, epoch: current.epoch, lease: old.name }]);
    });

    it('one stale row fails the whole statement: a multi-row insert, an upsert and an update write nothing', async () => {
      const { old, current } = await takenOver();
      const occurrence = `${old.name}@x`;
      await insertItem(old.name, current.epoch, occurrence, 1);
      await expect(
        pool.query(
          `INSERT INTO leaseboard_demo.plan_items (occurrence, document_id, policy, lease, epoch, written_at)
                    VALUES ($1, 2, 'short', $2, $3, now()), ($1, 3, 'short', $2, $4, now())`,
          [occurrence, old.name, current.epoch, old.epoch],
        ),
      ).rejects.toMatchObject({ code: FENCE_REFUSED });
      await expect(
        pool.query(
          `INSERT INTO leaseboard_demo.plan_items (occurrence, document_id, policy, lease, epoch, written_at) VALUES ($1, 1, 'standard', $2, $3, now())
                    ON CONFLICT (occurrence, document_id) DO UPDATE SET policy = excluded.policy, epoch = excluded.epoch`,
          [occurrence, old.name, old.epoch],
        ),
      ).rejects.toMatchObject({ code: FENCE_REFUSED });
      // An UPDATE that forgets to stamp its epoch keeps the row's old one: refused once that epoch is stale.
      await forceExpire(pool, old.name);
      await grant(old.name);
      await expect(pool.query(`UPDATE leaseboard_demo.plan_items SET policy = 'standard' WHERE occurrence = $1`, [occurrence])).rejects.toMatchObject({
        code: FENCE_REFUSED,
      });
      const { rows } = await pool.query('SELECT document_id::int AS id, policy FROM leaseboard_demo.plan_items WHERE occurrence = $1', [occurrence]);
      expect(rows).toEqual([{ id: 1, policy: 'short' }]);
    });

    it('expired, released and unknown leases are refused with their reason', async () => {
      const expired = await grant();
      await forceExpire(pool, expired.name);
      await expect(insertItem(expired.name, expired.epoch, 'o@1', 1)).rejects.toThrow(/expired/);
      const released = await grant();
      await authority.release(released);
      await expect(insertItem(released.name, released.epoch, 'o@2', 1)).rejects.toThrow(/released/);
      await expect(insertItem(uniqueLease(), 1, 'o@3', 1)).rejects.toThrow(/no_lease/);
    });

    it('a row without a fence cannot be written at all', async () => {
      await expect(
        pool.query(`INSERT INTO leaseboard_demo.plan_items (occurrence, document_id, policy, epoch, written_at) VALUES ('o@4', 1, 'short', 1, now())`),
      ).rejects.toMatchObject({
        code: '23502', // not_null_violation: lease
      });
    });

    it('DELETE and TRUNCATE need a current fence in their transaction', async () => {
      const { old, current } = await takenOver();
      const occurrence = `${old.name}@x`;
      await insertItem(old.name, current.epoch, occurrence, 1);
      await expect(pool.query('DELETE FROM leaseboard_demo.plan_items WHERE occurrence = $1', [occurrence])).rejects.toMatchObject({ code: FENCE_MISSING });
      await expect(pool.query('TRUNCATE leaseboard_demo.plan_items')).rejects.toMatchObject({ code: FENCE_MISSING });
      const client = new pg.Client(databaseUrl());
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SELECT set_config('leaseboard.fence', $1, true)`, [JSON.stringify({ lease: old.name, epoch: old.epoch })]);
        await expect(client.query('DELETE FROM leaseboard_demo.plan_items WHERE occurrence = $1', [occurrence])).rejects.toMatchObject({ code: FENCE_REFUSED });
        await client.query('ROLLBACK');
        expect((await items(occurrence)).rows).toHaveLength(1);
        await client.query('BEGIN');
        await client.query('SELECT leaseboard_fence($1, $2, $3)', [old.name, current.epoch, 'test']);
        expect((await client.query('DELETE FROM leaseboard_demo.plan_items WHERE occurrence = $1', [occurrence])).rowCount).toBe(1);
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
      expect((await items(occurrence)).rows).toEqual([]);
    });

    it('serializes with takeover: a grant over an expired lease waits until the fenced transaction ends', async () => {
      const name = uniqueLease();
      const acquired = await authority.acquire(leaseTerms({ name, ttlMs: TTL_FLOOR_MS }), newInstanceToken());
      if (acquired.kind !== 'acquired') throw new Error(acquired.kind);
      const writer = new pg.Client(databaseUrl());
      const racer = new pg.Client({ connectionString: databaseUrl(), statement_timeout: 300 });
      await Promise.all([writer.connect(), racer.connect()]);
      try {
        await writer.query('BEGIN');
        await writer.query('SELECT leaseboard_fence($1, $2, $3)', [name, acquired.epoch, 'test']);
        // The lease expires on the database clock (a plain read does not wait for the lock).
        await poll(
          async () => (await pool.query('SELECT expires_at <= clock_timestamp() AS over FROM leases WHERE name = $1', [name])).rows[0].over,
          Boolean,
          5_000,
          20,
        );
        const competitor = new LeaseAuthority(racer);
        expect((await competitor.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).kind).toBe('unknown'); // waited on the share lock past its timeout
        await writer.query('COMMIT');
        expect(await competitor.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken())).toMatchObject({ kind: 'acquired', epoch: acquired.epoch + 1 });
      } finally {
        await writer.query('ROLLBACK').catch(() => undefined);
        await Promise.all([writer.end(), racer.end()]);
      }
    });
  });
});

describe('writeFenced: the library path', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  async function grant(name = uniqueLease()) {
    const result = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken());
    if (result.kind !== 'acquired') throw new Error(result.kind);
    return { name, epoch: result.epoch };
  }

  const planned = (occurrence: string, ids: number[]) => (w: Parameters<Parameters<typeof writeFenced>[2]>[0]) =>
    [
      w.insert(
        planItems,
        ids.map((documentId) => ({ documentId, policy: 'short' })),
        { same: { occurrence, writtenAt: w.now } },
      ),
    ] as const;

  it('stamps lease and epoch itself, and returns the fence time', async () => {
    const g = await grant();
    const result = await writeFenced(pool, fenceFor(g), planned(`${g.name}@x`, [1, 2, 3]));
    if (result.kind !== 'written') throw new Error(result.kind);
    expect(result.results[0].count).toBe(3);
    const { rows } = await pool.query('SELECT DISTINCT lease, epoch::int, written_at FROM leaseboard_demo.plan_items WHERE occurrence = $1', [`${g.name}@x`]);
    expect(rows).toEqual([{ lease: g.name, epoch: g.epoch, written_at: result.at }]);
  });

  it('a stale write is rejected, typed, logged in its own statement, and writes nothing — even one touching no row', async () => {
    const old = await grant();
    await forceExpire(pool, old.name);
    const current = await grant(old.name);
    const stale = await writeFenced(pool, fenceFor(old), planned(`${old.name}@x`, [1, 2]));
    expect(stale).toMatchObject({ kind: 'rejected', reason: 'stale_epoch', currentEpoch: current.epoch, resource: 'plan_items', logged: true });
    const nothing = await writeFenced(pool, fenceFor(old), (w) => [completeOccurrence(w, `${old.name}@none`)]);
    expect(nothing).toMatchObject({ kind: 'rejected', reason: 'stale_epoch', resource: 'occurrences' });
    expect((await pool.query('SELECT count(*)::int AS n FROM leaseboard_demo.plan_items WHERE occurrence = $1', [`${old.name}@x`])).rows[0].n).toBe(0);
    const log = await pool.query(
      'SELECT attempted_epoch::int AS a, current_epoch::int AS c, resource, reason FROM stale_write_rejections WHERE lease = $1 ORDER BY id',
      [old.name],
    );
    expect(log.rows).toEqual([
      { a: old.epoch, c: current.epoch, resource: 'plan_items', reason: 'stale_epoch' },
      { a: old.epoch, c: current.epoch, resource: 'occurrences', reason: 'stale_epoch' },
    ]);
  });

  it('rejects under an expired, a released or a never-held lease', async () => {
    const expired = await grant();
    await forceExpire(pool, expired.name);
    expect(await writeFenced(pool, fenceFor(expired), planned('o@1', [1]))).toMatchObject({ kind: 'rejected', reason: 'expired' });
    const released = await grant();
    await authority.release({ ...released, holder: (await authority.read(released.name))!.holder });
    expect(await writeFenced(pool, fenceFor(released), planned('o@2', [1]))).toMatchObject({ kind: 'rejected', reason: 'released' });
    expect(await writeFenced(pool, fenceFor({ name: uniqueLease(), epoch: 1 }), planned('o@3', [1]))).toMatchObject({
      kind: 'rejected',
      reason: 'no_lease',
      currentEpoch: null,
    });
  });

  it('deletes run under the statement’s fence', async () => {
    const g = await grant();
    await writeFenced(pool, fenceFor(g), planned(`${g.name}@d`, [1, 2]));
    const deleted = await writeFenced(pool, fenceFor(g), (w) => [
      w.delete(planItems, eq(planItems.occurrence, `${g.name}@d`), { returning: { id: planItems.documentId } }),
    ]);
    if (deleted.kind !== 'written') throw new Error(deleted.kind);
    expect(deleted.results[0].rows.map((row) => row.id).sort()).toEqual([1, 2]);
  });

  it('a forgotten fence fails loudly: at the type check, and at run time', async () => {
    const g = await grant();
    // @ts-expect-error — a fence is only what fenceFor makes from a grant, never an ad-hoc object
    await expect(writeFenced(pool, { lease: g.name, epoch: g.epoch }, planned('o@5', [1]))).rejects.toThrow(/not a fence issued by fenceFor/);
    // @ts-expect-error — rows cannot carry their own lease or epoch: the fence stamps them
    writeFenced(pool, fenceFor(g), (w) => [w.insert(planItems, [{ documentId: 1, policy: 'short', occurrence: 'o@6', writtenAt: 'x', epoch: 99 }])]).catch(
      () => undefined,
    );
    // @ts-expect-error — only a table whose rows carry the fence can be inserted into
    writeFenced(pool, fenceFor(g), (w) => [w.insert(documents, [{ id: 1, retentionClass: 'short', createdAt: 'x' }])]).catch(() => undefined);
    // A read-only step's handle cannot write, whatever SQL it sends.
    const readDb = createReadOnlyPool(databaseUrl());
    try {
      await expect(
        readDb.query(
          `INSERT INTO leaseboard_demo.plan_items (occurrence, document_id, policy, lease, epoch, written_at) VALUES ('o@7', 1, 'short', $1, $2, now())`,
          [g.name, g.epoch],
        ),
      ).rejects.toMatchObject({
        code: '25006', // read_only_sql_transaction
      });
    } finally {
      await readDb.end();
    }
  });
});

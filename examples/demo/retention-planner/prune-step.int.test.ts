// The demo prunes its own plan items (the product's pruner knows no demo table): given plans of five
// occurrences of a lease, when its prune step runs batch by batch under the lease's fence, then only
// the newest KEEP_OCCURRENCES occurrences' plans are left, another lease's plans are untouched, and a
// stale holder's prune is refused.
import { describe, expect, it } from 'vitest';
import { createReadOnlyPool } from '../../../db/pool';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, occurrenceKey, writeFenced } from '../../../lib/lease';
import { KEEP_OCCURRENCES, pruneStep } from './prune-step';

describe("the retention planner's prune step", () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  async function planned(lease: string, epoch: number, slots: Date[]) {
    for (const at of slots) {
      const key = occurrenceKey(lease, at);
      await pool.query(`INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at) VALUES ($1, $2, $3, 'completed', $4, clock_timestamp())`, [
        key,
        lease,
        at.toISOString(),
        epoch,
      ]);
      await pool.query(
        `INSERT INTO leaseboard_demo.plan_items (occurrence, document_id, policy, lease, epoch, written_at)
         SELECT $1, d, 'short', $2, $3, clock_timestamp() FROM generate_series(1, 7) d`,
        [key, lease, epoch],
      );
    }
  }

  const itemsByOccurrence = async (lease: string) =>
    (
      await pool.query<{ occurrence: string; n: number }>(
        'SELECT occurrence, count(*)::int AS n FROM leaseboard_demo.plan_items WHERE lease = $1 GROUP BY occurrence ORDER BY occurrence',
        [lease],
      )
    ).rows;

  it(`keeps the newest ${KEEP_OCCURRENCES} occurrences' plans of its own lease, and refuses a stale holder`, async () => {
    const lease = uniqueLease('prune');
    const other = uniqueLease('prune-other');
    const grant = await authority.acquire(leaseTerms({ name: lease, ttlMs: 15_000 }), newInstanceToken());
    const otherGrant = await authority.acquire(leaseTerms({ name: other, ttlMs: 15_000 }), newInstanceToken());
    if (grant.kind !== 'acquired' || otherGrant.kind !== 'acquired') throw new Error('not acquired');
    const slots = [1, 2, 3, 4, 5].map((hour) => new Date(Date.UTC(2026, 11, 1, hour)));
    await planned(lease, grant.epoch, slots);
    await planned(other, otherGrant.epoch, slots.slice(0, 1));

    const step = pruneStep();
    const readDb = createReadOnlyPool(databaseUrl());
    const last = slots.at(-1)!;
    const input = { lease, key: occurrenceKey(lease, last), scheduledAt: last };
    try {
      // A stale holder (the lease taken over since) reads the same victims; its delete is refused, nothing goes.
      await forceExpire(pool, lease);
      const current = await authority.acquire(leaseTerms({ name: lease, ttlMs: 15_000 }), newInstanceToken());
      if (current.kind !== 'acquired') throw new Error(current.kind);
      const staleRead = await step.read({ db: readDb, ...input, cursor: 0 });
      expect(staleRead).not.toBeNull();
      const stale = await writeFenced(pool, fenceFor({ name: lease, epoch: grant.epoch }), (w) =>
        step.write(w, step.plan(staleRead!.data, { ...input, cursor: 0, next: staleRead!.next }), { ...input, cursor: 0, next: staleRead!.next }),
      );
      expect(stale).toMatchObject({ kind: 'rejected', reason: 'stale_epoch' });
      expect(await itemsByOccurrence(lease)).toHaveLength(5);

      // The current holder prunes, batch by batch, until the read finds nothing more.
      for (let cursor = 0; ;) {
        const read = await step.read({ db: readDb, ...input, cursor });
        if (!read) break;
        const plan = step.plan(read.data, { ...input, cursor, next: read.next });
        const result = await writeFenced(pool, fenceFor({ name: lease, epoch: current.epoch }), (w) =>
          step.write(w, plan, { ...input, cursor, next: read.next }),
        );
        expect(result.kind).toBe('written');
        cursor = read.next;
      }
    } finally {
      await readDb.end();
    }
    expect(await itemsByOccurrence(lease)).toEqual(slots.slice(-KEEP_OCCURRENCES).map((at) => ({ occurrence: occurrenceKey(lease, at), n: 7 })));
    expect(await itemsByOccurrence(other)).toEqual([{ occurrence: occurrenceKey(other, slots[0]!), n: 7 }]);
  });
});

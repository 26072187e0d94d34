import { describe, expect, it } from 'vitest';
import { createReadOnlyPool } from '../../../db/pool';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { type Fence, fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, occurrenceKey, writeFenced } from '../../../lib/lease';
import { advanceOccurrence, claimOccurrence, completeOccurrence } from '../../../lib/scheduler/occurrences';
import { seedDocuments } from './documents';
import { planStep } from './plan-step';

const TTL = 15_000;

// Invariant 6 at the level of one step's batches: an occurrence interrupted
// mid-way, taken over and re-run (even from an older cursor) plans each item once.
describe('retention planning across leadership changes', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  it('an occurrence interrupted mid-way, taken over and re-run yields each plan item exactly once', async () => {
    await seedDocuments(pool, 2_000);
    const readDb = createReadOnlyPool(databaseUrl());
    const name = uniqueLease('occ');
    const scheduledAt = new Date('2026-11-30T16:00:00Z');
    const key = occurrenceKey(name, scheduledAt);
    expect(key).toBe(`${name}@2026-11-30T16:00:00Z`);
    const step = planStep(300);
    /** One batch from `cursor`, as the runtime runs it: read → plan → write + cursor move in one fenced statement. */
    const batch = async (fence: Fence, cursor: number) => {
      const read = await step.read({ db: readDb, lease: name, key, scheduledAt, cursor });
      if (!read) return null;
      const input = { lease: name, key, scheduledAt, cursor, next: read.next };
      const plan = step.plan(read.data, input);
      return { next: read.next, result: await writeFenced(pool, fence, (w) => [...step.write(w, plan, input), advanceOccurrence(w, key, 0, read.next)]) };
    };
    try {
      // Leader 1 claims, plans two batches, then "pauses".
      const first = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken());
      if (first.kind !== 'acquired') throw new Error(first.kind);
      const fenceA = fenceFor({ name, epoch: first.epoch });
      expect(await claimOccurrence(pool, fenceA, key, scheduledAt)).toEqual({ kind: 'claimed', step: 0, cursor: 0, resumed: false });
      let cursor = 0;
      for (let i = 0; i < 2; i++) {
        const done = await batch(fenceA, cursor);
        expect(done?.result.kind).toBe('written');
        cursor = done!.next;
      }
      expect(cursor).toBe(600);

      // Leader 2 takes over and resumes at 600 — but re-runs from 0 on purpose.
      await forceExpire(pool, name);
      const second = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), newInstanceToken());
      if (second.kind !== 'acquired') throw new Error(second.kind);
      const fenceB = fenceFor({ name, epoch: second.epoch });
      expect(await claimOccurrence(pool, fenceB, key, scheduledAt)).toEqual({ kind: 'claimed', step: 0, cursor: 600, resumed: true });
      for (let at = 0; ;) {
        const done = await batch(fenceB, at);
        if (!done) break;
        expect(done.result.kind).toBe('written');
        at = done.next;
      }
      // The paused leader wakes and tries again: rejected, nothing written.
      expect((await batch(fenceA, 600))?.result).toMatchObject({ kind: 'rejected', reason: 'stale_epoch' });
      expect((await writeFenced(pool, fenceB, (w) => [completeOccurrence(w, key)])).kind).toBe('written');
      expect(await claimOccurrence(pool, fenceB, key, scheduledAt)).toEqual({ kind: 'already_completed' });

      const expected = await pool.query(
        `SELECT count(*)::int AS n FROM leaseboard_demo.documents WHERE retention_class <> 'legal_hold'
           AND created_at < clock_timestamp() - CASE retention_class WHEN 'short' THEN interval '30 days' ELSE interval '365 days' END`,
      );
      const items = await pool.query('SELECT count(*)::int AS n, count(DISTINCT document_id)::int AS d FROM leaseboard_demo.plan_items WHERE occurrence = $1', [
        key,
      ]);
      expect(items.rows[0].n).toBe(expected.rows[0].n);
      expect(items.rows[0].d).toBe(items.rows[0].n);
      expect(items.rows[0].n).toBeGreaterThan(0);
    } finally {
      await readDb.end();
    }
  });
});

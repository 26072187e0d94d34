import { describe, expect, it } from 'vitest';
import { forceExpire, uniqueLease, usePool } from '../../db/testing/pools';
import { seedDocuments } from '../scheduler/documents';
import { planBatch } from '../scheduler/retention';
import { type ActionContext, defineAction, runAction } from './actions';
import { LeaseAuthority } from './authority';
import { fencedWrite } from './fence';
import { claimOccurrence, completeOccurrence, occurrenceKey } from './occurrences';
import { newInstanceToken } from './token';

const TTL = 15_000;

describe('fenced writes at the resource', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  async function grant(name: string) {
    const holder = newInstanceToken();
    const result = await authority.acquire(name, holder, TTL);
    if (result.kind !== 'acquired') throw new Error(result.kind);
    return { name, holder, epoch: result.epoch };
  }

  const claimPlanItem = (lease: string, epoch: number, occurrence: string, documentId: number) =>
    fencedWrite<{ document_id: string }>(
      pool,
      { lease, epoch, resource: 'plan_items' },
      {
        ctes: `w AS (INSERT INTO plan_items (occurrence, document_id, policy, epoch, written_at)
                   SELECT $4, $5, 'short', fence.epoch, fence.at FROM fence RETURNING document_id)`,
        params: [occurrence, documentId],
      },
    );

  it('rejects and logs a write with the previous epoch after takeover; accepts the current epoch', async () => {
    const old = await grant(uniqueLease());
    await forceExpire(pool, old.name);
    const current = await grant(old.name);

    const stale = await claimPlanItem(old.name, old.epoch, `${old.name}@x`, 1);
    expect(stale).toMatchObject({ kind: 'rejected', reason: 'stale_epoch', currentEpoch: current.epoch });
    const fresh = await claimPlanItem(old.name, current.epoch, `${old.name}@x`, 2);
    expect(fresh.kind).toBe('written');

    const items = await pool.query('SELECT document_id::int AS id, epoch::int FROM plan_items WHERE occurrence = $1', [`${old.name}@x`]);
    expect(items.rows).toEqual([{ id: 2, epoch: current.epoch }]);
    const log = await pool.query('SELECT attempted_epoch::int AS a, current_epoch::int AS c, resource, reason FROM stale_write_rejections WHERE lease = $1', [
      old.name,
    ]);
    expect(log.rows).toEqual([{ a: old.epoch, c: current.epoch, resource: 'plan_items', reason: 'stale_epoch' }]);
  });

  it('rejects writes under an expired, a released, or a never-held lease', async () => {
    const expired = await grant(uniqueLease());
    await forceExpire(pool, expired.name);
    expect(await claimPlanItem(expired.name, expired.epoch, 'o', 1)).toMatchObject({ kind: 'rejected', reason: 'expired' });
    const released = await grant(uniqueLease());
    await authority.release(released);
    expect(await claimPlanItem(released.name, released.epoch, 'o', 1)).toMatchObject({ kind: 'rejected', reason: 'released' });
    expect(await claimPlanItem(uniqueLease(), 1, 'o', 1)).toMatchObject({ kind: 'rejected', reason: 'no_lease', currentEpoch: null });
  });

  it('refuses a fenced action without a current epoch before it runs', async () => {
    let ran = false;
    const action = defineAction({ name: 'test.write', actionClass: 'fenced', run: async () => (ran = true) });
    const ctx: ActionContext = { db: pool, fence: null };
    expect(await runAction(action, ctx, undefined)).toEqual({ kind: 'refused', action: 'test.write', reason: 'no_current_epoch' });
    expect(ran).toBe(false);
    const readOnly = defineAction({ name: 'test.read', actionClass: 'read_only', run: async () => 'read' });
    expect(await runAction(readOnly, ctx, undefined)).toEqual({ kind: 'ran', value: 'read' });
  });
});

describe('idempotent occurrences across leadership changes', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  it('an occurrence interrupted mid-way, taken over and re-run yields each plan item exactly once', async () => {
    await seedDocuments(pool, 2_000);
    const name = uniqueLease('occ');
    const scheduledAt = new Date('2026-11-30T16:00:00Z');
    const key = occurrenceKey(name, scheduledAt);
    expect(key).toBe(`${name}@2026-11-30T16:00:00Z`);

    // Leader 1 claims, plans two batches, then "pauses".
    const a = newInstanceToken();
    const first = await authority.acquire(name, a, TTL);
    if (first.kind !== 'acquired') throw new Error(first.kind);
    const fenceA = { lease: name, epoch: first.epoch, resource: 'plan_items' };
    expect(await claimOccurrence(pool, fenceA, key, scheduledAt)).toEqual({ kind: 'claimed', cursor: 0, resumed: false });
    let cursor = 0;
    for (let i = 0; i < 2; i++) {
      const batch = await planBatch(pool, fenceA, { occurrence: key, after: cursor, limit: 300 });
      if (batch.kind !== 'written') throw new Error(batch.kind);
      cursor = batch.rows[0]!.cursor;
    }
    expect(cursor).toBe(600);

    // Leader 2 takes over and resumes — but re-runs from an older cursor on purpose.
    await forceExpire(pool, name);
    const second = await authority.acquire(name, newInstanceToken(), TTL);
    if (second.kind !== 'acquired') throw new Error(second.kind);
    const fenceB = { lease: name, epoch: second.epoch, resource: 'plan_items' };
    expect(await claimOccurrence(pool, fenceB, key, scheduledAt)).toEqual({ kind: 'claimed', cursor: 600, resumed: true });
    let resumeAt = 0;
    for (;;) {
      const batch = await planBatch(pool, fenceB, { occurrence: key, after: resumeAt, limit: 500 });
      if (batch.kind !== 'written') throw new Error(batch.kind);
      if (batch.rows[0]!.scanned === 0) break;
      resumeAt = batch.rows[0]!.cursor;
    }
    // The paused leader wakes and tries again: rejected, nothing written.
    expect((await planBatch(pool, fenceA, { occurrence: key, after: 600, limit: 300 })).kind).toBe('rejected');
    expect((await completeOccurrence(pool, fenceB, key)).kind).toBe('written');
    expect(await claimOccurrence(pool, fenceB, key, scheduledAt)).toEqual({ kind: 'already_completed' });

    const expected = await pool.query(
      `SELECT count(*)::int AS n FROM documents WHERE retention_class <> 'legal_hold'
         AND created_at < clock_timestamp() - CASE retention_class WHEN 'short' THEN interval '30 days' ELSE interval '365 days' END`,
    );
    const items = await pool.query('SELECT count(*)::int AS n, count(DISTINCT document_id)::int AS d FROM plan_items WHERE occurrence = $1', [key]);
    expect(items.rows[0].n).toBe(expected.rows[0].n);
    expect(items.rows[0].d).toBe(items.rows[0].n);
    expect(items.rows[0].n).toBeGreaterThan(0);
  });
});

// A read that does not re-judge what did not change (migration rejudge_only_changes), on real
// PostgreSQL through the real protocol functions: a renewal, and a report that says nothing new,
// come back as moved times, never as changed schedulers; an advance, a lost seq, a silence break,
// a new epoch, a new occurrence or a new cadence do. The list stays what a full read says — at a
// silence deadline reached through moved times only, and after random churn.
import { describe, expect, it } from 'vitest';
import { forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { type Grant, LeaseAuthority } from '../../lease';
import { appendReport } from '../../scheduler/report-store';
import { expectSameAsFull } from '../testing/same-as-full-read';
import { acquire, register, serviceOn, sleep } from '../testing/seed';
import { readAllFacts, readChangedFacts } from './facts';

interface Reporter {
  grant: Grant;
  seq: number;
  cursor: number;
  occurrence: string | null;
  every: number;
}

const report = (pool: ReturnType<typeof usePool>, r: Reporter) =>
  appendReport(pool, { lease: r.grant.name, epoch: r.grant.epoch, seq: ++r.seq, occurrence: r.occurrence, cursor: r.cursor, reportEveryMs: r.every });

describe('moved times against changes (real PostgreSQL)', () => {
  const pool = usePool({ max: 4 });

  async function holding(prefix: string, every = 1_000): Promise<Reporter> {
    const name = uniqueLease(prefix);
    await register(pool, name, { reportEveryMs: every, everyMs: 3_600_000 });
    const r: Reporter = { grant: await acquire(pool, name, 15_000), seq: 0, cursor: 0, occurrence: null, every };
    await report(pool, r);
    return r;
  }

  /** What the incremental read sees of `name` after `write`, from a snapshot taken just before it. */
  async function seenAfter(name: string, write: () => Promise<unknown>): Promise<{ changed: boolean; moved: string[] }> {
    const { snapshot } = await readAllFacts(pool);
    await write();
    const changes = await readChangedFacts(pool, snapshot);
    return { changed: changes.changed.some((s) => s.facts.name === name), moved: changes.moved.filter((m) => m.name === name).map((m) => m.kind) };
  }

  it('given a report that says nothing new, or a renewal, then the scheduler is not changed: only its times move', async () => {
    const r = await holding('inc-quiet');
    expect(await seenAfter(r.grant.name, () => report(pool, r))).toEqual({ changed: false, moved: ['report'] });
    expect(await seenAfter(r.grant.name, () => new LeaseAuthority(pool).renew(r.grant))).toEqual({ changed: false, moved: ['renewal'] });
    const both = await seenAfter(r.grant.name, async () => {
      await new LeaseAuthority(pool).renew(r.grant);
      await report(pool, r);
    });
    expect({ ...both, moved: both.moved.sort() }).toEqual({ changed: false, moved: ['renewal', 'report'] });
  });

  it('given an advance, a new occurrence, a lost seq, a silence, a new cadence or a new epoch, then the scheduler is changed (read whole, no moved times)', async () => {
    const r = await holding('inc-change', 200);
    const changed = { changed: true, moved: [] };
    const name = r.grant.name;
    expect(await seenAfter(name, () => report(pool, Object.assign(r, { cursor: r.cursor + 1 })))).toEqual(changed); // advance
    expect(await seenAfter(name, () => report(pool, Object.assign(r, { occurrence: `${name}@2026-12-02T15:00:00Z` })))).toEqual(changed);
    expect(await seenAfter(name, () => report(pool, Object.assign(r, { seq: r.seq + 1 })))).toEqual(changed); // a lost seq
    await sleep(700); // > 3 × 200 ms: the next report closes a silence
    expect(await seenAfter(name, () => report(pool, r))).toEqual(changed);
    expect(await seenAfter(name, () => report(pool, Object.assign(r, { every: 500 })))).toEqual(changed); // cadence
    await forceExpire(pool, name);
    const grant = await acquire(pool, name, 15_000);
    // The takeover itself changes the lease; the new epoch's first report changes the summary.
    expect(await seenAfter(name, () => report(pool, Object.assign(r, { grant, seq: 0 })))).toEqual(changed);
    expect(await seenAfter(name, () => report(pool, r))).toEqual({ changed: false, moved: ['report'] });
  });

  it('given reports that say nothing new and then silence, then the list turns unknown (silence) at its deadline exactly as a full read does', async () => {
    const r = await holding('inc-silent', 400); // silent after 3 × 400 ms without a report
    const service = serviceOn(pool, 5_000);
    await expectSameAsFull(pool, service, 'first read');
    const healthOf = (live: Awaited<ReturnType<typeof expectSameAsFull>>) => live.view.all().find((s) => s.name === r.grant.name)!.health;
    for (let i = 0; i < 8; i++) {
      await report(pool, r);
      const live = await expectSameAsFull(pool, service, `quiet report ${i}`);
      expect(service.index.lastApply).toMatchObject({ changed: 0, moved: 1 });
      expect(healthOf(live)).toBe('progressing');
      await sleep(100);
    }
    const seen: string[] = [];
    for (let i = 0; i < 80 && !seen.includes('unknown'); i++) {
      await sleep(50);
      const live = await expectSameAsFull(pool, service, `silent, read ${i}`);
      expect(service.index.lastApply.changed).toBe(0);
      seen.push(healthOf(live));
    }
    expect(seen.at(-1)).toBe('unknown');
    expect(seen[0]).toBe('progressing');
  });

  it.each([5, 17, 23])(
    'random churn, mostly renewals and reports that say nothing new (seed %i): the incremental list equals a full read after every step',
    async (seed) => {
      let x = seed;
      const next = () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
      const held = await Promise.all(Array.from({ length: 5 }, (_, i) => holding(`inc-churn${i}`, pick([200, 400]))));
      const service = serviceOn(pool, 5_000);
      const authority = new LeaseAuthority(pool);
      let moved = 0;
      const log: string[] = [];
      await expectSameAsFull(pool, service, 'first read');
      for (let step = 1; step <= 60; step++) {
        const r = pick(held);
        const op = pick(['renew', 'renew', 'quiet', 'quiet', 'quiet', 'quiet', 'advance', 'lose', 'cadence', 'takeover', 'wait', 'wait'] as const);
        if (op === 'renew') await authority.renew(r.grant);
        if (op === 'quiet') await report(pool, r);
        if (op === 'advance') await report(pool, Object.assign(r, { cursor: r.cursor + 1 }));
        if (op === 'lose') await report(pool, Object.assign(r, { seq: r.seq + 2 }));
        if (op === 'cadence') await report(pool, Object.assign(r, { every: r.every === 200 ? 400 : 200 }));
        if (op === 'takeover') {
          await forceExpire(pool, r.grant.name);
          Object.assign(r, { grant: await acquire(pool, r.grant.name, pick([1_000, 15_000])), seq: 0 });
        }
        if (op === 'wait') await sleep(pick([100, 300, 700]));
        log.push(`${step} ${op} ${r.grant.name}`);
        await expectSameAsFull(pool, service, `seed ${seed}, after:\n${log.slice(-6).join('\n')}`);
        moved += service.index.lastApply.moved;
      }
      expect(moved).toBeGreaterThan(0);
    },
  );
});

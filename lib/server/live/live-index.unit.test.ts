/**
 * Time alone, on a fake clock: with no new facts, a status kept in memory
 * changes exactly when a threshold passes — not a millisecond early or late —
 * and only the schedulers whose threshold passed are projected again.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../status';
import { ago, facts, later, lease, MIN, NOW_MS, progress, SEC } from '../../status/test-fixtures';
import { toIso } from '../../status/time';
import type { SchedulerFacts } from '../../status/types';
import type { SchedulerRead } from './facts';
import { normalizeListParams } from './list-params';
import { LiveIndex } from './live-index';

const T: Thresholds = { ...DEFAULT_THRESHOLDS, stallAfterMs: MIN };
const read = (name: string, over: Partial<SchedulerFacts>): SchedulerRead => {
  const f = facts({ name, ...over });
  return { facts: { ...f, lease: f.lease === null ? null : { ...f.lease, name } }, thresholds: T, registration: null, lastRejectionAt: null };
};
const at = (ms: number) => toIso(NOW_MS + ms);
const nothing = { changed: [], removed: [] };
const healthOf = (view: ReturnType<LiveIndex['load']>, name: string) => view.all().find((s) => s.name === name)?.health;

describe('LiveIndex, time alone (fake clock, no new facts)', () => {
  // Reports keep "arriving" in the future relative to the fake clock, so silence never interferes.
  const reporting = (over: Partial<ReturnType<typeof progress>>) => progress({ lastReportAt: later(10 * MIN), ...over });

  it('given a held lease expiring at +5 s, then it is held at +4.999 s and no_leader at exactly +5 s', () => {
    const index = new LiveIndex();
    index.load([read('expiring', { lease: lease({ expiresAt: later(5 * SEC), renewedAt: ago(SEC), ttlMs: 15 * SEC }), progress: reporting({}) })], at(0));
    const before = index.apply(nothing, at(5 * SEC - 1));
    expect(healthOf(before, 'expiring')).toBe('progressing');
    const onTime = index.apply(nothing, at(5 * SEC));
    expect(healthOf(onTime, 'expiring')).toBe('no_leader');
    expect(onTime.all()[0]!.authority).toMatchObject({ state: 'expired', expiresInMs: 0 });
  });

  it('given an advance 58 s ago and a 1 min stall threshold, then progressing until +2 s and stalled from +2.001 s', () => {
    const index = new LiveIndex();
    const stuck = read('stuck', { lease: lease({ expiresAt: later(10 * MIN) }), progress: reporting({ lastAdvanceAt: ago(58 * SEC) }) });
    const fine = read('fine', { lease: lease({ expiresAt: later(10 * MIN) }), progress: reporting({ lastAdvanceAt: later(MIN) }) });
    index.load([stuck, fine], at(0));
    expect(index.lastApply).toMatchObject({ changed: 2, timed: 0 });
    const until = index.apply(nothing, at(2 * SEC));
    expect(healthOf(until, 'stuck')).toBe('progressing');
    const after = index.apply(nothing, at(2 * SEC + 1));
    expect(healthOf(after, 'stuck')).toBe('stalled');
    expect(after.counts).toMatchObject({ stalled: 1, progressing: 1 });
    // Only the scheduler whose threshold passed was projected again.
    expect(index.lastApply).toMatchObject({ changed: 0, timed: 1, rebuilt: true });
    // The list order follows: stalled first.
    expect(after.page(normalizeListParams({})).schedulers.map((s) => s.name)).toEqual(['stuck', 'fine']);
  });

  it('given no threshold ahead, then an apply with nothing new projects nothing and keeps the order', () => {
    const index = new LiveIndex();
    index.load([read('released', { lease: lease({ released: true, expiresAt: ago(SEC) }), progress: null })], at(0));
    const view = index.apply(nothing, at(MIN));
    expect(index.lastApply).toEqual({ changed: 0, removed: 0, timed: 0, moved: 0, movedJudged: 0, rebuilt: false });
    expect(view.page(normalizeListParams({})).schedulers[0]!.authority.renewalAgeMs).toBe(MIN + SEC);
  });

  it('given the clock goes back, then everything is judged again', () => {
    const index = new LiveIndex();
    index.load([read('a', {}), read('b', {})], at(10 * SEC));
    index.apply(nothing, at(5 * SEC));
    expect(index.lastApply.timed).toBe(2);
  });

  it('views stay as they were when later applies change the index', () => {
    const index = new LiveIndex();
    const first = index.load([read('a', {})], at(0));
    index.apply({ changed: [read('b', {})], removed: ['a'] }, at(SEC));
    expect(first.all().map((s) => s.name)).toEqual(['a']);
    expect(
      index
        .apply(nothing, at(2 * SEC))
        .all()
        .map((s) => s.name),
    ).toEqual(['b']);
  });

  describe('moved times (a renewal, a report that says nothing new)', () => {
    const renewal = (name: string, renewedMs: number, ttlMs: number) =>
      ({ name, kind: 'renewal', epoch: lease().epoch, renewedAt: at(renewedMs), expiresAt: at(renewedMs + ttlMs) }) as const;
    const held = (ttlMs: number) => lease({ renewedAt: at(0), expiresAt: at(ttlMs), ttlMs });

    it('given a renewal before any threshold passed, then the judgement is kept, not projected again, and pages and metrics show the new renewal', () => {
      const index = new LiveIndex();
      index.load([read('a', { lease: held(15 * SEC), progress: reporting({}) })], at(0));
      const view = index.apply({ ...nothing, moved: [renewal('a', 2 * SEC, 15 * SEC)] }, at(3 * SEC));
      expect(index.lastApply).toMatchObject({ changed: 0, moved: 1, movedJudged: 0, timed: 0 });
      expect(view.all()[0]!.authority).toMatchObject({ renewedAt: at(2 * SEC), renewalAgeMs: SEC, atRisk: false });
      expect(view.metricRows()[0]!.renewalAgeMs).toBe(SEC);
    });

    it('given a lease judged at risk, then a renewal that the read brings late is judged again: no longer at risk', () => {
      // ttl 3 s: at risk once the renewal is older than 2 s. The renewal happened at +1.9 s, read at +2.5 s.
      const index = new LiveIndex();
      index.load([read('a', { lease: held(3 * SEC), progress: reporting({}) })], at(0));
      expect(index.apply(nothing, at(2_500)).all()[0]!.authority.atRisk).toBe(true);
      const view = index.apply({ ...nothing, moved: [renewal('a', 1_900, 3 * SEC)] }, at(2_600));
      expect(index.lastApply).toMatchObject({ moved: 1, movedJudged: 1 });
      expect(view.all()[0]!.authority).toMatchObject({ atRisk: false, renewalAgeMs: 700 });
    });

    it('given moved times that do not fit what is held (another epoch, an unknown name), then the next read must be a full one', () => {
      const index = new LiveIndex();
      index.load([read('a', { lease: held(15 * SEC) })], at(0));
      index.apply({ ...nothing, moved: [{ ...renewal('a', SEC, 15 * SEC), epoch: lease().epoch + 1 }] }, at(SEC));
      expect(index.needsFullRead).toBe(true);
      index.load([read('a', { lease: held(15 * SEC) })], at(SEC));
      expect(index.needsFullRead).toBe(false);
      index.apply({ ...nothing, moved: [renewal('b', SEC, 15 * SEC)] }, at(SEC));
      expect(index.needsFullRead).toBe(true);
    });
  });
});

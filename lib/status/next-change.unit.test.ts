/**
 * Given facts that do not change, the judgement (health, authority, at-risk,
 * work, gap reason) may only change at the instants nextJudgementChangeMs
 * names: walking from change to change, every instant in between judges the
 * same, so a cache that re-projects at those instants is never late.
 */
import { describe, expect, it } from 'vitest';
import { movableTimesBoundaryMs, nextJudgementChangeMs } from './next-change';
import { project } from './project';
import { ago, facts, later, lease, MIN, NOW, NOW_MS, progress, SEC, T } from './test-fixtures';
import { toIso } from './time';
import type { Thresholds } from './thresholds';
import type { SchedulerFacts } from './types';

const judgement = (f: SchedulerFacts, ms: number, t: Thresholds) => {
  const s = project(f, toIso(ms), t);
  return `${s.health}|${s.authority.state}|${s.authority.atRisk}|${s.work.state}|${s.observation.gap?.reason ?? '-'}`;
};

/** mulberry32: a seeded generator, so a failure names its seed and replays. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

function randomCase(seed: number): { f: SchedulerFacts; t: Thresholds } {
  const r = random(seed);
  // Facts may lie ahead of the walk's start too (a report 2 min "later"): the walk then crosses every kind of threshold.
  const at = (backMs: number, aheadMs = backMs / 4) => toIso(NOW_MS + r.int(-backMs, aheadMs));
  // 0.29 × 1,700 and 0.29 × 3,000 carry float noise just below a whole ms (the at-risk boundary's hardest case).
  const ttlMs = r.pick([1_000, 1_700, 3_000, 15_000, 60_000]);
  const epoch = r.int(1, 3);
  const t: Thresholds = {
    stallAfterMs: r.pick([1_000, 7_000, 30_000, 5 * MIN]),
    overdueAfterMs: r.pick([0, 5_000, MIN]),
    atRiskFraction: r.pick([0.29, 0.5, 2 / 3, 1]),
  };
  const theLease = r.chance(0.1) ? null : lease({ epoch, ttlMs, renewedAt: at(ttlMs * 2, MIN), expiresAt: at(ttlMs * 2, 2 * MIN), released: r.chance(0.1) });
  const reportEveryMs = r.pick([500, 2_000, 5_000]);
  const theProgress = r.chance(0.1)
    ? null
    : progress({
        epoch: r.chance(0.8) ? epoch : r.pick([epoch - 1, epoch + 1]),
        reportEveryMs,
        lastReportAt: at(reportEveryMs * 6, 2 * MIN),
        lastAdvanceAt: at(t.stallAfterMs * 2, MIN),
        inFlight: r.chance(0.5) ? 'retention-planner@2026-11-30T11:00:00Z' : null,
        gap: r.chance(0.5) ? { from: at(t.stallAfterMs * 3), to: at(t.stallAfterMs * 2, MIN), reason: r.pick(['silence', 'lost_reports'] as const) } : null,
      });
  const due = r.chance(0.5) ? { occurrence: 'retention-planner@2026-11-30T12:00:00Z', dueAt: at(t.overdueAfterMs * 2 + 10_000, MIN) } : null;
  const intent = r.chance(0.1) ? { disabled: r.chance(0.5), by: 'sre', reason: 'drill', at: ago(MIN) } : null;
  return { f: facts({ lease: theLease, progress: theProgress, due, intent }), t };
}

describe('nextJudgementChangeMs', () => {
  it('given a healthy holder, then the next change is the first threshold ahead (silence: 3 × 2 s after the last report)', () => {
    // last report 1 s ago, silence after > 6 s: the flip lies at +5.001 s; the answer is at most 2 ms before it.
    const next = nextJudgementChangeMs(facts(), NOW_MS, T);
    expect(next).toBeGreaterThanOrEqual(NOW_MS + 5_001 - 2);
    expect(next).toBeLessThanOrEqual(NOW_MS + 5_001);
    expect(judgement(facts(), NOW_MS + 5_000, T)).toBe('progressing|held|false|progressing|-');
    expect(judgement(facts(), NOW_MS + 5_001, T)).toBe('unknown|held|false|unknown|silence');
  });

  it('given nothing time can change (released lease, unreadable store), then Infinity', () => {
    expect(nextJudgementChangeMs(facts({ lease: lease({ released: true }) }), NOW_MS, T)).toBe(Infinity);
    expect(nextJudgementChangeMs(facts({ store: { ok: false, lastObservedAt: NOW } }), NOW_MS, T)).toBe(Infinity);
  });

  it('given an expired lease with its expiry passed, then nothing ahead comes from the lease', () => {
    const f = facts({ lease: lease({ expiresAt: ago(SEC), renewedAt: ago(16 * SEC) }), progress: null });
    expect(nextJudgementChangeMs(f, NOW_MS, T)).toBe(Infinity);
    expect(later(0)).toBe(NOW);
  });

  it('property: between two answers the judgement never changes (1,000 random schedulers, walked 3 min ahead)', () => {
    for (let seed = 1; seed <= 1_000; seed++) {
      const { f, t } = randomCase(seed);
      const r = random(seed * 7919);
      let from = NOW_MS;
      for (let step = 0; step < 50 && from < NOW_MS + 3 * MIN; step++) {
        const next = nextJudgementChangeMs(f, from, t);
        expect(next, `seed ${seed}`).toBeGreaterThan(from);
        const until = Math.min(next, NOW_MS + 3 * MIN);
        const expected = judgement(f, from, t);
        const probes = [from + 1, until - 1, until - 2, ...Array.from({ length: 6 }, () => r.int(from, until - 1))].filter((ms) => ms >= from && ms < until);
        for (const ms of probes) expect(judgement(f, ms, t), `seed ${seed}: changed at ${ms - NOW_MS} ms, before ${next - NOW_MS}`).toBe(expected);
        if (next === Infinity) break;
        from = next;
      }
    }
  });

  it('property: before movableTimesBoundaryMs, renewals and reports that say nothing new (times moved later) judge as the facts before them (1,000 random schedulers)', () => {
    for (let seed = 1; seed <= 1_000; seed++) {
      const { f, t } = randomCase(seed);
      const r = random(seed * 104_729);
      const boundary = movableTimesBoundaryMs(f, t);
      const later = (iso: string) => toIso(Date.parse(iso) + r.pick([0, 1, r.int(1, 2 * MIN)]));
      const moved: SchedulerFacts = {
        ...f,
        lease: f.lease === null ? null : { ...f.lease, renewedAt: later(f.lease.renewedAt), expiresAt: later(f.lease.expiresAt) },
        progress: f.progress === null ? null : { ...f.progress, lastReportAt: later(f.progress.lastReportAt), lastSeq: f.progress.lastSeq + r.int(0, 3) },
      };
      const top = boundary === Infinity ? NOW_MS + 3 * MIN : boundary;
      const probes = [top - 1, top - 2, ...Array.from({ length: 8 }, () => r.int(top - 3 * MIN, top - 1))];
      for (const ms of probes) expect(judgement(moved, ms, t), `seed ${seed}: at ${ms - NOW_MS} ms, boundary ${boundary - NOW_MS}`).toBe(judgement(f, ms, t));
    }
  });
});

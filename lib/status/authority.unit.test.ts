/**
 * Authority axis, given/when/then on fake time: held, the three ways of
 * having no leader, the expiry boundary, and the atRisk boundary.
 */
import { describe, expect, it } from 'vitest';
import { project } from './project';
import { facts, later, ago, lease, MIN, NOW, progress, SEC, T } from './test-fixtures';
import type { AuthorityState, SchedulerFacts, WorkState } from './types';

describe('authority: who holds the lease', () => {
  const cases: { given: string; facts: SchedulerFacts; then: { authority: AuthorityState; work: WorkState } }[] = [
    { given: 'a lease expiring in 14 s', facts: facts(), then: { authority: 'held', work: 'progressing' } },
    { given: 'a lease expiring in 1 ms', facts: facts({ lease: lease({ expiresAt: later(1) }) }), then: { authority: 'held', work: 'progressing' } },
    { given: 'a lease never held', facts: facts({ lease: null, progress: null }), then: { authority: 'none', work: 'none' } },
    {
      given: 'a lease that expired 1 s ago while its old holder still reports',
      facts: facts({ lease: lease({ renewedAt: ago(16 * SEC), expiresAt: ago(1 * SEC) }), progress: progress({ lastReportAt: ago(0) }) }),
      then: { authority: 'expired', work: 'none' },
    },
    { given: 'a lease whose expiresAt equals now', facts: facts({ lease: lease({ expiresAt: NOW }) }), then: { authority: 'expired', work: 'none' } },
    {
      given: 'a released lease (even with expiresAt in the future)',
      facts: facts({ lease: lease({ released: true, expiresAt: later(10 * SEC) }) }),
      then: { authority: 'released', work: 'none' },
    },
  ];

  it.each(cases)('given $given, then authority is $then.authority and work $then.work', (c) => {
    const status = project(c.facts, NOW, T);
    expect(status.authority.state).toBe(c.then.authority);
    expect(status.work.state).toBe(c.then.work);
    if (c.then.authority !== 'held') {
      expect(status.health).toBe('no_leader');
      expect(status.observation.gap).toBeNull();
      expect(status.authority.atRisk).toBe(false);
    }
  });

  it('reports the lease facts with ages in ms, and a reason naming holder, epoch and renewal age', () => {
    const status = project(facts({ lease: lease({ renewedAt: ago(1200) }) }), NOW, T);
    expect(status.authority).toEqual({
      state: 'held',
      holder: 'inst_7kq2m9xd',
      label: 'A',
      epoch: 7,
      acquiredAt: ago(10 * MIN),
      renewedAt: ago(1200),
      renewalAgeMs: 1200,
      expiresAt: later(14 * SEC),
      expiresInMs: 14 * SEC,
      ttlMs: 15 * SEC,
      atRisk: false,
    });
    expect(status.reasons).toContainEqual({
      code: 'authority_held',
      message: 'lease renewed 1.2 s ago by inst_7kq2m9xd (A), epoch 7; expires in 14 s',
    });
  });

  it('given a never-held lease, then every authority field is null and the reason says so', () => {
    const status = project(facts({ lease: null, progress: null }), NOW, T);
    expect(status.authority).toMatchObject({ state: 'none', holder: null, epoch: null, renewalAgeMs: null, expiresInMs: null });
    expect(status.reasons).toEqual([{ code: 'authority_none', message: 'lease never held' }]);
  });

  it('given an expired lease whose old holder reported after expiry, then a reason says its reports are not progress', () => {
    const f = facts({ lease: lease({ renewedAt: ago(20 * SEC), expiresAt: ago(5 * SEC) }), progress: progress({ lastReportAt: ago(1 * SEC) }) });
    const status = project(f, NOW, T);
    expect(status.work.state).toBe('none');
    expect(status.reasons.map((r) => r.code)).toEqual(['authority_expired', 'reports_after_expiry']);
  });
});

describe('authority: atRisk when renewal age > atRiskFraction × ttl (strict)', () => {
  // ttl 15 s, fraction ½ → limit 7.5 s.
  const cases = [
    { renewalAgeMs: 7_499, expiresAt: later(7_501), then: false },
    { renewalAgeMs: 7_500, expiresAt: later(7_500), then: false },
    { renewalAgeMs: 7_501, expiresAt: later(7_499), then: true },
    { renewalAgeMs: 14_999, expiresAt: later(1), then: true },
  ];
  it.each(cases)('given renewal $renewalAgeMs ms ago, then atRisk is $then', ({ renewalAgeMs, expiresAt, then }) => {
    const status = project(facts({ lease: lease({ renewedAt: ago(renewalAgeMs), expiresAt }) }), NOW, T);
    expect(status.authority.state).toBe('held');
    expect(status.authority.atRisk).toBe(then);
    expect(status.reasons.some((r) => r.code === 'renewal_at_risk')).toBe(then);
  });

  it('given an expired lease renewed long ago, then it is expired, not at risk', () => {
    const status = project(facts({ lease: lease({ renewedAt: ago(20 * SEC), expiresAt: ago(5 * SEC) }) }), NOW, T);
    expect(status.authority).toMatchObject({ state: 'expired', atRisk: false, expiresInMs: -5 * SEC });
  });

  it('given float noise in fraction × ttl (0.29 × 100 = 28.999…), then the boundary stays strict', () => {
    const t = { ...T, atRiskFraction: 0.29 };
    const at = (age: number) => project(facts({ lease: lease({ ttlMs: 100, renewedAt: ago(age), expiresAt: later(100 - age) }) }), NOW, t);
    expect(at(29).authority.atRisk).toBe(false);
    expect(at(30).authority.atRisk).toBe(true);
  });

  it('given the default fraction ⅔, then 10 s of a 15 s ttl is not at risk and 10.001 s is', () => {
    const t = { ...T, atRiskFraction: 2 / 3 };
    const at = (age: number) => project(facts({ lease: lease({ renewedAt: ago(age), expiresAt: later(15 * SEC - age) }) }), NOW, t);
    expect(at(10_000).authority.atRisk).toBe(false);
    expect(at(10_001).authority.atRisk).toBe(true);
    expect(at(10_001).reasons).toContainEqual({ code: 'renewal_at_risk', message: 'renewal age 10 s > 67% of ttl 15 s (10 s)' });
  });
});

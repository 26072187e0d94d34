/**
 * The projection as a whole: operator intent, an unreadable store, health
 * precedence, purity (no clock, no mutation) and rejected input.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { project } from './project';
import { DEFAULT_THRESHOLDS } from './thresholds';
import { StatusInputError } from './time';
import { ago, facts, lease, MIN, NOW, progress, SEC, T } from './test-fixtures';
import type { SchedulerFacts } from './types';

const disabled = { disabled: true, by: 'oncall', reason: 'storage migration', at: ago(60 * MIN) };

describe('operator-disabled', () => {
  it.each([
    { given: 'a never-held lease', facts: facts({ lease: null, progress: null, intent: disabled }), authority: 'none', work: 'none' },
    { given: 'a holder draining its work', facts: facts({ intent: disabled }), authority: 'held', work: 'progressing' },
    { given: 'a stalled holder', facts: facts({ intent: disabled, progress: progress({ lastAdvanceAt: ago(5 * MIN) }) }), authority: 'held', work: 'stalled' },
    { given: 'an expired lease', facts: facts({ intent: disabled, lease: lease({ expiresAt: ago(1) }) }), authority: 'expired', work: 'none' },
  ] as const)('given $given, then health is disabled and the axes stay truthful', (c) => {
    const status = project(c.facts, NOW, T);
    expect(status.health).toBe('disabled');
    expect(status.authority.state).toBe(c.authority);
    expect(status.work.state).toBe(c.work);
    expect(status.intent).toEqual(disabled);
    expect(status.reasons[0]).toEqual({ code: 'intent_disabled', message: 'disabled by oncall 1 h ago: storage migration' });
  });

  it('given an intent that re-enabled the scheduler, then health follows the axes', () => {
    const status = project(facts({ intent: { ...disabled, disabled: false } }), NOW, T);
    expect(status.health).toBe('progressing');
    expect(status.reasons.map((r) => r.code)).not.toContain('intent_disabled');
  });
});

describe('status store unreadable', () => {
  const store = { ok: false as const, lastObservedAt: ago(20 * SEC) };
  it('then every state is unknown, with a gap from the last observation to now', () => {
    const status = project(facts({ store, lease: lease({ renewedAt: ago(14 * SEC) }) }), NOW, T);
    expect(status.health).toBe('unknown');
    expect(status.authority.state).toBe('unknown');
    expect(status.authority.atRisk).toBe(false);
    expect(status.work.state).toBe('unknown');
    expect(status.observation.gap).toEqual({ from: ago(20 * SEC), to: NOW, reason: 'store_unreadable' });
    expect(status.reasons).toEqual([
      {
        code: 'store_unreadable',
        message: 'status store unreadable; last observed at 11:59:40Z (20 s ago, holder inst_7kq2m9xd, epoch 7); every state unknown',
      },
    ]);
  });

  it('given a standby too far behind answered, then the same unknowns, and the reason says so', () => {
    const status = project(facts({ store: { ...store, why: 'standby_behind' } }), NOW, T);
    expect(status.health).toBe('unknown');
    expect(status.observation.gap?.reason).toBe('store_unreadable');
    expect(status.reasons[0]!.message).toMatch(/^answered by a standby too far behind; last observed at 11:59:40Z/);
  });

  it('then last known facts stay visible as values, never as states', () => {
    const status = project(facts({ store }), NOW, T);
    expect(status.authority).toMatchObject({ holder: 'inst_7kq2m9xd', epoch: 7 });
    expect(status.work).toMatchObject({ state: 'unknown', lastReportAt: ago(1 * SEC) });
  });

  it('given the last read intent said disabled, then health is unknown (the intent may have changed since)', () => {
    expect(project(facts({ store, intent: disabled }), NOW, T).health).toBe('unknown');
  });

  it('given a never-held lease, then authority is unknown, not none', () => {
    expect(project(facts({ store, lease: null, progress: null }), NOW, T).authority.state).toBe('unknown');
  });
});

describe('purity', () => {
  afterEach(() => vi.useRealTimers());

  it('given the same facts and now, then the same status whatever the wall clock says', () => {
    const f = facts({ progress: progress({ lastAdvanceAt: ago(5 * MIN) }) });
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const a = project(f, NOW, T);
    vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
    const b = project(f, NOW, T);
    expect(a).toEqual(b);
    expect(a.health).toBe('stalled');
  });

  it('never mutates its input', () => {
    const f: SchedulerFacts = facts({ intent: disabled, due: { occurrence: 'o', dueAt: ago(2 * MIN) } });
    const frozen = structuredClone(f);
    deepFreeze(f);
    project(f, NOW, T);
    expect(f).toEqual(frozen);
  });

  it('uses DEFAULT_THRESHOLDS when none are given (stall after 5 min)', () => {
    expect(DEFAULT_THRESHOLDS).toEqual({ stallAfterMs: 5 * MIN, overdueAfterMs: 5 * MIN, atRiskFraction: 2 / 3 });
    const f = (age: number) => facts({ progress: progress({ lastAdvanceAt: ago(age) }) });
    expect(project(f(5 * MIN), NOW).work.state).toBe('progressing');
    expect(project(f(5 * MIN + 1), NOW).work.state).toBe('stalled');
  });
});

describe('rejected input', () => {
  it.each([
    { field: 'stallAfterMs', t: { ...T, stallAfterMs: 0 } },
    { field: 'overdueAfterMs', t: { ...T, overdueAfterMs: -1 } },
    { field: 'atRiskFraction', t: { ...T, atRiskFraction: 1.5 } },
    { field: 'gapAfterMs', t: { ...T, gapAfterMs: Number.NaN } },
  ])('given a bad $field, then StatusInputError names it', ({ field, t }) => {
    expect(() => project(facts(), NOW, t)).toThrowError(StatusInputError);
    expect(() => project(facts(), NOW, t)).toThrowError(field);
  });

  it('given an unparseable time, then StatusInputError names the field', () => {
    expect(() => project(facts({ lease: lease({ renewedAt: 'yesterday' }) }), NOW, T)).toThrowError('lease.renewedAt');
    expect(() => project(facts(), 'soon', T)).toThrowError('now');
  });

  it("given another scheduler's lease, then StatusInputError", () => {
    expect(() => project(facts({ name: 'other' }), NOW, T)).toThrowError(/lease\.name/);
  });
});

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/** Health precedence and severity order. */
import { describe, expect, it } from 'vitest';
import { compareHealth, deriveHealth, HEALTH_SEVERITY, healthRank, worstHealth } from './health';
import type { Health } from './types';

describe('deriveHealth', () => {
  const off = { disabled: true, by: 'oncall', reason: 'r', at: '2026-11-30T11:00:00.000Z' };
  it.each([
    { authority: 'unknown', work: 'unknown', intent: off, then: 'unknown' },
    { authority: 'held', work: 'stalled', intent: off, then: 'disabled' },
    { authority: 'expired', work: 'none', intent: null, then: 'no_leader' },
    { authority: 'released', work: 'none', intent: null, then: 'no_leader' },
    { authority: 'none', work: 'none', intent: null, then: 'no_leader' },
    { authority: 'held', work: 'progressing', intent: null, then: 'progressing' },
    { authority: 'held', work: 'stalled', intent: null, then: 'stalled' },
    { authority: 'held', work: 'idle', intent: null, then: 'idle' },
    { authority: 'held', work: 'unknown', intent: null, then: 'unknown' },
    { authority: 'held', work: 'none', intent: null, then: 'unknown' },
  ] as const)('authority $authority, work $work → $then', ({ authority, work, intent, then }) => {
    expect(deriveHealth(authority, work, intent)).toBe(then);
  });
});

describe('severity', () => {
  it('orders worst first and ranks consistently', () => {
    expect(HEALTH_SEVERITY).toEqual(['stalled', 'no_leader', 'unknown', 'disabled', 'idle', 'progressing']);
    HEALTH_SEVERITY.forEach((h, i) => expect(healthRank(h)).toBe(i));
  });

  it('sorts with compareHealth and picks the worst', () => {
    const list: Health[] = ['progressing', 'idle', 'unknown', 'disabled', 'stalled', 'no_leader'];
    expect([...list].sort(compareHealth)).toEqual(HEALTH_SEVERITY);
    expect(worstHealth(['idle', 'unknown', 'progressing'])).toBe('unknown');
    expect(worstHealth(['unknown', 'no_leader'])).toBe('no_leader');
    expect(worstHealth([])).toBeNull();
  });
});

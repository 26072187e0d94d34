/** The report grid: the wait to the next round is in (0, every + slack], on the process's phase. */
import { describe, expect, it } from 'vitest';
import { ROUND_SLACK_MS, roundPhase, untilNextRound } from './report-rounds';

const PERIOD = 2_000 + ROUND_SLACK_MS;

describe('untilNextRound', () => {
  it('waits for the next grid point strictly after now, a period of the cadence plus the slack', () => {
    expect(untilNextRound(500 + 5 * PERIOD - 500, 2_000, 500)).toBe(500);
    expect(untilNextRound(500 + 5 * PERIOD, 2_000, 500)).toBe(PERIOD); // on a point: the next one, never 0
    expect(untilNextRound(500 + 5 * PERIOD + 1, 2_000, 500)).toBe(PERIOD - 1);
  });

  it('puts leases answered at different times on one round', () => {
    const round = 500 + 3 * PERIOD;
    const answeredAt = [round - PERIOD + 17, round - 1_000, round - 1, round];
    expect(answeredAt.map((now) => now + untilNextRound(now, 2_000, 500))).toEqual([round, round, round, round + PERIOD]);
  });

  it('never waits longer than one period, however late the answer came', () => {
    for (const now of [0, 1, 1_999, 2_000, 123_456, -7]) {
      const wait = untilNextRound(now, 2_000, 61_003);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(PERIOD);
    }
  });

  it('refuses a cadence that is not positive', () => {
    expect(() => untilNextRound(0, 0, 0)).toThrow(/everyMs/);
  });

  it('spreads phases over an hour', () => {
    expect(roundPhase(() => 0)).toBe(0);
    expect(roundPhase(() => 0.5)).toBe(1_800_000);
  });
});

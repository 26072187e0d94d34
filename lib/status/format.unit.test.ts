/** Duration, clock and percentage formatting: table of input → text. */
import { describe, expect, it } from 'vitest';
import { formatAgo, formatClock, formatDuration, formatIn, formatPercent } from './format';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [999.9, '999 ms'],
    [1_000, '1 s'],
    [1_200, '1.2 s'],
    [1_299, '1.2 s'],
    [9_999, '9.9 s'],
    [10_000, '10 s'],
    [59_999, '59 s'],
    [60_000, '1 min'],
    [90_000, '1 min 30 s'],
    [599_999, '9 min 59 s'],
    [660_000, '11 min'],
    [719_999, '11 min'],
    [3_600_000, '1 h'],
    [7_500_000, '2 h 5 min'],
    [86_400_000, '1 d'],
    [273_600_000, '3 d 4 h'],
    [-1_200, '−1.2 s'],
    [Number.NaN, '?'],
    [Number.POSITIVE_INFINITY, '?'],
  ])('%s ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('relative forms', () => {
  it('formats ages and times-until, flipping direction for negative values', () => {
    expect(formatAgo(1_200)).toBe('1.2 s ago');
    expect(formatAgo(-3_000)).toBe('in 3 s');
    expect(formatIn(14_000)).toBe('in 14 s');
    expect(formatIn(-1_000)).toBe('1 s ago');
  });
});

describe('formatClock and formatPercent', () => {
  it('shows UTC time of day and whole percentages', () => {
    expect(formatClock('2026-11-30T11:59:30.000Z')).toBe('11:59:30Z');
    expect(formatClock('2026-11-30T13:59:30.000+02:00')).toBe('11:59:30Z');
    expect(formatClock('not a time')).toBe('?');
    expect(formatPercent(2 / 3)).toBe('67%');
    expect(formatPercent(0.5)).toBe('50%');
  });
});

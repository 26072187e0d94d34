import { describe, expect, it } from 'vitest';
import { elapsedSince } from './local-clock';

describe('elapsedSince', () => {
  it('takes the larger of the monotonic and wall deltas (a sleeping laptop pauses the monotonic clock)', () => {
    expect(elapsedSince({ mono: 1_000, wall: 50_000 }, { mono: 1_500, wall: 3_650_000 })).toBe(3_600_000);
  });

  it('never goes negative when the wall clock steps back', () => {
    expect(elapsedSince({ mono: 1_000, wall: 50_000 }, { mono: 1_200, wall: 10_000 })).toBe(200);
    expect(elapsedSince({ mono: 1_000, wall: 50_000 }, { mono: 900, wall: 40_000 })).toBe(0);
  });
});

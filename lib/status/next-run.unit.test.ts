import { describe, expect, it } from 'vitest';
import { nextRun } from './next-run';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-12-02T10:30:00.000Z');

describe('nextRun', () => {
  it('given an hourly cadence whose current slot started (running or ended), then the next starts at the next hour', () => {
    expect(nextRun(HOUR, NOW, true)).toEqual({ kind: 'slot', atMs: Date.parse('2026-12-02T11:00:00.000Z'), due: false });
  });

  it('given the current slot not started yet, then it is due now, at its own start', () => {
    expect(nextRun(HOUR, NOW, false)).toEqual({ kind: 'slot', atMs: Date.parse('2026-12-02T10:00:00.000Z'), due: true });
  });

  it('given no known cadence, then whenever the holder next runs, never a guessed instant', () => {
    expect(nextRun(null, NOW, false)).toEqual({ kind: 'whenever' });
    expect(nextRun(0, NOW, true)).toEqual({ kind: 'whenever' });
  });
});

import { describe, expect, it } from 'vitest';
import { parseRetentionPolicy } from '../../lib/retention/policy';
import { parseSoakArgs, partitionWidthFor, SoakUsageError } from './plan';

describe('parseSoakArgs', () => {
  it('given --minutes 3 --speed 20 --horizon 60s, then the timings follow and the pruner environment is a valid policy', () => {
    const plan = parseSoakArgs(['--minutes', '3', '--speed', '20', '--horizon', '60s']);
    expect(plan).toMatchObject({ durationMs: 180_000, horizonMs: 60_000, partitionWidthMs: 15_000, prunerEveryMs: 7_000, sampleEveryMs: 3_000 });
    expect(plan.judgeAfterMs).toBe(60_000 + 15_000 + 7_000);
    const policy = parseRetentionPolicy(plan.env);
    expect(policy).toMatchObject({ partitionWidthMs: 15_000, pruneEveryMs: 7_000 });
    expect(Object.values(policy.keepMs)).toEqual(Array(6).fill(60_000));
    const planner = plan.processes.find((p) => p.id === 'planner A')!;
    expect(planner.flags).toMatchObject({ every: 15_000, 'report-every': 100 });
    expect(plan.processes.map((p) => p.id)).toContain('pruner P');
  });

  it('given --no-pruner, then no pruner runs', () => {
    expect(parseSoakArgs(['--no-pruner']).processes.map((p) => p.job)).not.toContain('leaseboard-retention');
  });

  it.each([
    [['--minutes', '0'], '--minutes'],
    [['--speed', 'fast'], '--speed'],
    [['--horizon', '5s'], '--horizon'],
    [['--horizon', '2d'], '--horizon'],
    [['--bogus'], 'bogus'],
  ])('given %j, then it is refused naming the flag', (argv, flag) => {
    expect(() => parseSoakArgs(argv)).toThrow(SoakUsageError);
    expect(() => parseSoakArgs(argv)).toThrow(flag);
  });
});

describe('partitionWidthFor', () => {
  it.each([
    [10_000, 10_000],
    [30_000, 10_000],
    [60_000, 15_000],
    [300_000, 75_000],
    [3_600_000, 900_000],
  ])('horizon %i ms → width %i ms (divides a day, ≥ 10 s, ≤ a quarter)', (horizon, width) => {
    expect(partitionWidthFor(horizon)).toBe(width);
    expect((24 * 3_600_000) % width).toBe(0);
  });
});

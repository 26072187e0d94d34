import { describe, expect, it } from 'vitest';
import { FleetJudge } from './judge';
import { planFleet } from './plan';

const plan = planFleet({ schedulers: 4, processes: 2, durationMs: 120_000, faultEveryMs: 10_000 });
const T0 = Date.parse('2026-12-02T12:00:00Z');
const POLL = plan.pollMs;

/** A judge with one fault: `kind` on `leases` of process 0 from T0, ended at T0 + endsAfterMs. */
function withFault(kind: 'pause' | 'drop', leases: string[], endsAfterMs: number) {
  const judge = new FleetJudge(POLL, plan.recoveryMs);
  const fault = judge.start({ kind, worker: 0, leases, startedAt: T0, timing: plan.faults[kind] });
  judge.end(fault, T0 + endsAfterMs);
  return judge;
}

describe('FleetJudge', () => {
  it('given a drop shown as unknown within its threshold plus one poll and healthy after, then it is detected and recovered', () => {
    const judge = withFault('drop', ['fleet-00001'], 10_000);
    judge.observe(T0 + 4_000, new Map());
    judge.observe(T0 + 6_000 + POLL, new Map([['fleet-00001', 'unknown']]));
    judge.observe(T0 + 12_000, new Map());
    const [judgement] = judge.judge();
    expect(judgement).toMatchObject({ undetected: [], unrecovered: [], slowestDetectionMs: 6_000 + POLL, slowestRecoveryMs: 2_000 });
    expect(judge.falseCount).toBe(0);
  });

  it('given a drop first shown one millisecond past its threshold plus one poll, then it is undetected', () => {
    const judge = withFault('drop', ['fleet-00001'], 10_000);
    judge.observe(T0 + 6_000 + POLL + 1, new Map([['fleet-00001', 'unknown']]));
    judge.observe(T0 + 12_000, new Map());
    expect(judge.judge()[0]!.undetected).toEqual(['fleet-00001']);
  });

  it('given a pause whose leases read stalled (not no_leader), then it is undetected', () => {
    const judge = withFault('pause', ['fleet-00001', 'fleet-00002'], 19_000);
    judge.observe(
      T0 + 16_000,
      new Map([
        ['fleet-00001', 'no_leader'],
        ['fleet-00002', 'stalled'],
      ]),
    );
    judge.observe(T0 + 20_000, new Map());
    expect(judge.judge()[0]!.undetected).toEqual(['fleet-00002']);
  });

  it('given a lease no fault touches read unhealthy, then it is a false status', () => {
    const judge = withFault('drop', ['fleet-00001'], 10_000);
    judge.observe(
      T0 + 8_000,
      new Map([
        ['fleet-00001', 'unknown'],
        ['fleet-00003', 'stalled'],
      ]),
    );
    expect(judge.falseCount).toBe(1);
    expect(judge.falseStatuses).toEqual([{ at: T0 + 8_000, lease: 'fleet-00003', health: 'stalled' }]);
  });

  it('given a faulted lease unhealthy before its fault began or again after it recovered, then each is a false status', () => {
    const judge = withFault('drop', ['fleet-00001'], 10_000);
    judge.observe(T0 - POLL, new Map([['fleet-00001', 'unknown']]));
    judge.observe(T0 + 8_000, new Map([['fleet-00001', 'unknown']]));
    judge.observe(T0 + 12_000, new Map());
    judge.observe(T0 + 14_000, new Map([['fleet-00001', 'unknown']]));
    expect(judge.falseStatuses.map((f) => f.at)).toEqual([T0 - POLL, T0 + 14_000]);
  });

  it('given a lease still unhealthy past the recovery window, then it is unrecovered and then false', () => {
    const judge = withFault('drop', ['fleet-00001'], 10_000);
    judge.observe(T0 + 8_000, new Map([['fleet-00001', 'unknown']]));
    judge.observe(T0 + 10_000 + plan.recoveryMs, new Map([['fleet-00001', 'unknown']]));
    judge.observe(T0 + 10_000 + plan.recoveryMs + 1, new Map([['fleet-00001', 'unknown']]));
    expect(judge.judge()[0]!.unrecovered).toEqual(['fleet-00001']);
    expect(judge.falseCount).toBe(1);
  });

  it('given renewal misses, then only those in a paused process within its window plus grace are excused', () => {
    const judge = withFault('pause', ['fleet-00001'], 19_000);
    const grace = plan.scheduler.ttlMs + plan.scheduler.renewDeadlineMs;
    expect(judge.unexcusedMisses(0, 2, [T0 + 1_000, T0 + 19_000 + grace], grace)).toBe(0);
    expect(judge.unexcusedMisses(0, 1, [T0 + 19_000 + grace + 1], grace)).toBe(1);
    expect(judge.unexcusedMisses(1, 1, [T0 + 1_000], grace)).toBe(1);
    // More misses than instants kept: excused with them when every kept one is; counted with them otherwise.
    expect(judge.unexcusedMisses(0, 500, [T0 + 1_000], grace)).toBe(0);
    expect(judge.unexcusedMisses(1, 500, [T0 + 1_000], grace)).toBe(500);
  });
});

import { describe, expect, it } from 'vitest';
import type { FaultJudgement } from './judge';
import { FAULT_KINDS, planFleet } from './plan';
import { type FleetOutcome, type FleetSample, fleetVerdict, perThousandLine } from './verdict';

const plan = planFleet({ schedulers: 4, processes: 2, durationMs: 120_000, faultEveryMs: 10_000 });

const judgement = (kind: (typeof FAULT_KINDS)[number], id: number): FaultJudgement => ({
  fault: { id, kind, worker: 0, leases: ['fleet-00001'], startedAt: 0, endedAt: 1_000, timing: plan.faults[kind] },
  undetected: [],
  slowestDetectionMs: plan.faults[kind].withinMs,
  unrecovered: [],
  slowestRecoveryMs: 1_000,
});

const sample = { alertRoundMs: 300, renewals: 10 } as FleetSample;

/** A run that met every target; each test breaks one thing. */
const passing = (): FleetOutcome => ({
  samples: [sample],
  listMs: Array.from({ length: 100 }, () => 20),
  listFailures: 0,
  judgements: FAULT_KINDS.map((kind, i) => judgement(kind, i + 1)),
  falseStatuses: [],
  falseCount: 0,
  falseSpan: null,
  reads: 100,
  missed: 0,
  renewals: 10,
  failures: [],
  pollMs: plan.pollMs,
  speedTargets: 'judge',
});

describe('fleetVerdict', () => {
  it('given every fault shown and recovered and every target met, then it passes', () => {
    expect(fleetVerdict(passing()).pass).toBe(true);
  });

  it.each([
    ['a fault kind never injected', (o: FleetOutcome) => (o.judgements = o.judgements.slice(1)), /pause: never injected/],
    ['an undetected lease', (o: FleetOutcome) => (o.judgements[2]!.undetected = ['fleet-00001']), /NOT shown in time: fleet-00001/],
    ['an unrecovered lease', (o: FleetOutcome) => (o.judgements[3]!.unrecovered = ['fleet-00001']), /NOT recovered/],
    [
      'a false status',
      (o: FleetOutcome) => ((o.falseCount = 1), (o.falseStatuses = [{ at: 0, lease: 'fleet-00002', health: 'stalled' }])),
      /false statuses: 1/,
    ],
    ['a missed renewal', (o: FleetOutcome) => (o.missed = 1), /missed renewal deadlines .*: 1 of/],
    ['a failed list read', (o: FleetOutcome) => (o.listFailures = 1), /list reads that failed: 1/],
    ['a list p99 at the target', (o: FleetOutcome) => (o.listMs = [...o.listMs.slice(2), 100, 100]), /list p99 100 ms/],
    ['an alert round at the target', (o: FleetOutcome) => (o.samples = [{ ...sample, alertRoundMs: 2_000 }]), /slowest alert round 2000 ms/],
    ['no alert round', (o: FleetOutcome) => (o.samples = [{ ...sample, alertRoundMs: null }]), /alert rounds: none completed/],
    ['a process that died', (o: FleetOutcome) => (o.failures = ['scheduler process 1 exited (1) unasked']), /scheduler process 1 exited/],
  ])('given %s, then it fails and says why', (_name, breakIt, why) => {
    const outcome = passing();
    breakIt(outcome);
    const verdict = fleetVerdict(outcome);
    expect(verdict.pass).toBe(false);
    expect(verdict.lines.filter((line) => line.startsWith('FAIL')).join('\n')).toMatch(why);
  });

  it('given speed reported, not judged (the gate), then a slow list and alert round are figures and a false status still fails', () => {
    const slow = { ...passing(), speedTargets: 'report' as const, listMs: [500, 500], samples: [{ ...sample, alertRoundMs: 5_000 }] };
    const verdict = fleetVerdict(slow);
    expect(verdict.pass).toBe(true);
    expect(verdict.lines.filter((line) => line.startsWith('--'))).toHaveLength(2);
    expect(fleetVerdict({ ...slow, falseCount: 1, falseStatuses: [{ at: 0, lease: 'fleet-00002', health: 'stalled' }] }).pass).toBe(false);
  });
});

describe('the per-1,000 line', () => {
  it('scales the sampled means to 1,000 schedulers, the generator apart, and says — for what was not measured', () => {
    const at = (dbCores: number | null, rowsPerS: number) =>
      ({ dbCores, dashboardCores: 0.1, generatorCores: null, walBytesPerS: 2_048_000, rowsPerS }) as FleetSample;
    expect(perThousandLine([at(0.5, 1_000), at(null, 3_000)], 2_000)).toBe(
      'per 1,000 schedulers: database CPU 0.250 cores, dashboard CPU 0.050 cores, generator CPU — (apart), WAL 1000.0 kB/s, rows written 1000/s (2000 schedulers, 2 samples)',
    );
  });
});

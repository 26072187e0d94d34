import { describe, expect, it } from 'vitest';
import { FleetUsageError, parseFleetArgs } from './plan';

describe('the fleet plan’s generator flags', () => {
  it('runs --real schedulers in real processes beside --simulated ones, in simulated processes of --simulated-per-process', () => {
    const plan = parseFleetArgs(['--simulated', '9900', '--real', '100', '--processes', '2', '--simulated-per-process', '50']);
    expect([plan.schedulers, plan.real, plan.simulated, plan.simulatedPerProcess, plan.processes]).toEqual([10_000, 100, 9_900, 50, 2]);
    expect(plan.simulatorPoolMax).toBe(11);
    expect(parseFleetArgs(['--simulated', '500']).real).toBe(100);
  });

  it('without --simulated, --schedulers are all real, as before', () => {
    const plan = parseFleetArgs(['--schedulers', '300', '--processes', '3']);
    expect([plan.schedulers, plan.real, plan.simulated]).toEqual([300, 300, 0]);
  });

  it('refuses mixed or out-of-range flags by name', () => {
    expect(() => parseFleetArgs(['--simulated', '10', '--schedulers', '20'])).toThrow(FleetUsageError);
    expect(() => parseFleetArgs(['--real', '20'])).toThrow(/--real and --simulated-per-process go with --simulated/);
    expect(() => parseFleetArgs(['--simulated', '0'])).toThrow(/--simulated/);
    expect(() => parseFleetArgs(['--simulated', '10', '--real', '2', '--processes', '3'])).toThrow(/--processes \(3\) cannot exceed the real schedulers \(2\)/);
  });
});

/**
 * The fleet's plan, from its command line: how many schedulers in how many
 * processes, for how long, how often a fault, and every timing and threshold
 * that follows. Pure: no clock, no I/O.
 *
 * Guarantees: bad flags throw `FleetUsageError` naming the flag; every
 * threshold a fault is judged by follows from the schedulers' own settings
 * (lease timing, report cadence, stall threshold) and the poll, as the
 * projection rules say (docs/design.md, "The status projection").
 */
import { parseArgs } from 'node:util';
import { DEFAULT_LEASE_TIMING } from '../../lib/lease';
import { DEFAULT_REPORT_EVERY_MS, SILENCE_FACTOR } from '../../lib/status';

const SEC = 1_000;
const MIN = 60 * SEC;

export class FleetUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FleetUsageError';
  }
}

const FLEET_DEFAULTS = { schedulers: 300, processes: 3, minutes: 2, faultEveryS: 15, real: 100, simulatedPerProcess: 100 } as const;

/** Targets the verdict holds a run to. */
export const FLEET_TARGETS = { listP99Ms: 100, alertRoundMs: 2_000 } as const;

export type FaultKind = 'pause' | 'freeze' | 'drop' | 'kill';
/** In this order, in turn: the two that take a whole process first, so a short run with few processes gets all four. */
export const FAULT_KINDS: readonly FaultKind[] = ['pause', 'kill', 'freeze', 'drop'];

export interface FaultTiming {
  /** How long the fault lasts (pause until SIGCONT, freeze and drop until switched off, kill until restarted). */
  lastsMs: number;
  /** The health every lease it touches must show… */
  expect: 'no_leader' | 'stalled' | 'unknown';
  /** …within this long of the fault's start (its threshold; the judge adds one poll). */
  withinMs: number;
}

export interface FleetPlan {
  /** Every scheduler of the run: `real` in real runtime processes, the rest simulated by the generator (./simulator.ts). */
  schedulers: number;
  real: number;
  simulated: number;
  /** Leases per simulated process (each batches its renewals and reports as one process of the library). */
  simulatedPerProcess: number;
  /** Connections of the generator's one pool (every simulated process shares it). */
  simulatorPoolMax: number;
  /**
   * Whether the speed targets (list p99, alert round) fail the run (`judge`, the default) or are printed as
   * figures (`report`): the short run in `npm test` shares the 2 cores with every other tier, and a speed
   * target is a benchmark's to measure, never a test's to time; its correctness rules are the same.
   */
  speedTargets: 'judge' | 'report';
  /** Real scheduler processes (holding the `real` leases between them). */
  processes: number;
  durationMs: number;
  faultEveryMs: number;
  /** Scheduler settings every lease runs with (the runtime's defaults, but a shorter stall threshold). */
  scheduler: {
    ttlMs: number;
    renewEveryMs: number;
    renewDeadlineMs: number;
    reportEveryMs: number;
    stallAfterMs: number;
    overdueAfterMs: number;
    /** The fleet job's occurrence cadence and how often its cursor moves. */
    jobEveryMs: number;
    advanceEveryMs: number;
  };
  /** Connections per scheduler process. */
  poolMax: number;
  /** The dashboard's poll: the list is read, and every fault judged, this often. */
  pollMs: number;
  sampleEveryMs: number;
  /** After this long from the fleet's start, every lease must be healthy unless a fault explains it. */
  settleMs: number;
  /** A lease a fault touched must be healthy again within this long of the fault's end. */
  recoveryMs: number;
  /** Faults start only until this long before the end, so each ends and recovers within the run. */
  quietTailMs: number;
  faults: Record<FaultKind, FaultTiming>;
}

function whole(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new FleetUsageError(`--${flag}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return value;
}

function positive(flag: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0) || value > max)
    throw new FleetUsageError(`--${flag}: expected a number in (0, ${max}], got ${JSON.stringify(raw)}`);
  return value;
}

export function parseFleetArgs(argv: string[]): FleetPlan {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        schedulers: { type: 'string' },
        processes: { type: 'string' },
        minutes: { type: 'string' },
        'fault-every': { type: 'string' },
        'speed-targets': { type: 'string' },
        simulated: { type: 'string' },
        real: { type: 'string' },
        'simulated-per-process': { type: 'string' },
      },
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    throw new FleetUsageError((error as Error).message);
  }
  // With --simulated, the run is `--real` schedulers in real processes beside the generator's; without, --schedulers real ones.
  const simulated = values.simulated === undefined ? 0 : whole('simulated', values.simulated, 0, 1, 100_000);
  if (simulated > 0 && values.schedulers !== undefined) throw new FleetUsageError('--schedulers and --simulated: give --simulated N --real M instead');
  if (simulated === 0 && (values.real !== undefined || values['simulated-per-process'] !== undefined))
    throw new FleetUsageError('--real and --simulated-per-process go with --simulated');
  const real =
    simulated > 0 ? whole('real', values.real, FLEET_DEFAULTS.real, 2, 100_000) : whole('schedulers', values.schedulers, FLEET_DEFAULTS.schedulers, 2, 100_000);
  const simulatedPerProcess = whole('simulated-per-process', values['simulated-per-process'], FLEET_DEFAULTS.simulatedPerProcess, 1, 10_000);
  const processes = whole('processes', values.processes, FLEET_DEFAULTS.processes, 1, 64);
  if (processes > real) throw new FleetUsageError(`--processes (${processes}) cannot exceed the real schedulers (${real})`);
  const minutes = positive('minutes', values.minutes, FLEET_DEFAULTS.minutes, 24 * 60);
  const faultEveryS = positive('fault-every', values['fault-every'], FLEET_DEFAULTS.faultEveryS, 3_600);
  const speedTargets = values['speed-targets'] ?? 'judge';
  if (speedTargets !== 'judge' && speedTargets !== 'report')
    throw new FleetUsageError(`--speed-targets: expected judge or report, got ${JSON.stringify(speedTargets)}`);
  return planFleet({
    schedulers: real,
    simulated,
    simulatedPerProcess,
    processes,
    durationMs: Math.round(minutes * MIN),
    faultEveryMs: Math.round(faultEveryS * SEC),
    speedTargets,
  });
}

/** `schedulers`: the real ones; `simulated` (default none) run beside them in the generator. */
export function planFleet(input: {
  schedulers: number;
  simulated?: number;
  simulatedPerProcess?: number;
  processes: number;
  durationMs: number;
  faultEveryMs: number;
  speedTargets?: FleetPlan['speedTargets'];
}): FleetPlan {
  const { ttlMs, renewEveryMs, renewDeadlineMs } = DEFAULT_LEASE_TIMING;
  const reportEveryMs = DEFAULT_REPORT_EVERY_MS;
  const gapAfterMs = SILENCE_FACTOR * reportEveryMs;
  // The runtime's defaults except the stall threshold (5 min by default): 30 s, so a 2-minute run sees a stall.
  const stallAfterMs = 30 * SEC;
  const advanceEveryMs = 5 * SEC;
  const pollMs = 2 * SEC;
  const faults: Record<FaultKind, FaultTiming> = {
    // A paused holder stops renewing: its lease expires at most ttl after the pause began.
    pause: { lastsMs: ttlMs + 2 * pollMs, expect: 'no_leader', withinMs: ttlMs },
    // The cursor stops; reports go on: stalled once the last advance (before the freeze) is older than
    // stallAfter, or — frozen between occurrences — once the next (due within one advance) is overdue.
    freeze: { lastsMs: stallAfterMs + advanceEveryMs + 2 * pollMs, expect: 'stalled', withinMs: stallAfterMs + advanceEveryMs },
    // No report arrives: silence past SILENCE_FACTOR × reportEvery is unknown.
    drop: { lastsMs: gapAfterMs + 2 * pollMs, expect: 'unknown', withinMs: gapAfterMs },
    // A killed holder, restarted only after its leases expired.
    kill: { lastsMs: ttlMs + 2 * pollMs, expect: 'no_leader', withinMs: ttlMs },
  };
  const recoveryMs = ttlMs + advanceEveryMs + 2 * reportEveryMs + 2 * pollMs;
  const longest = Math.max(...Object.values(faults).map((fault) => fault.lastsMs));
  const simulated = input.simulated ?? 0;
  return {
    schedulers: input.schedulers + simulated,
    real: input.schedulers,
    simulated,
    simulatedPerProcess: input.simulatedPerProcess ?? FLEET_DEFAULTS.simulatedPerProcess,
    // About a connection per 1,000 simulated schedulers (2 to 16): what their statements keep busy at the default cadence.
    simulatorPoolMax: Math.min(16, Math.max(2, Math.ceil(simulated / 1_000) + 1)),
    speedTargets: input.speedTargets ?? 'judge',
    processes: input.processes,
    durationMs: input.durationMs,
    faultEveryMs: input.faultEveryMs,
    scheduler: { ttlMs, renewEveryMs, renewDeadlineMs, reportEveryMs, stallAfterMs, overdueAfterMs: stallAfterMs, jobEveryMs: 5 * MIN, advanceEveryMs },
    // A connection per 100 leases (3 to 10): hundreds of report loops queue on a process's pool, and a renewal
    // batch waits in the same queue (with 3 for 500 leases, waits for a connection passed the 5 s connect timeout).
    poolMax: Math.min(10, Math.max(3, Math.ceil(input.schedulers / input.processes / 100))),
    pollMs,
    sampleEveryMs: input.durationMs <= 5 * MIN ? 10 * SEC : MIN,
    // One lease term after every lease is held: the start's burst (every runtime registering, acquiring and
    // claiming at once, a load no real fleet makes) has drained, and every lease has renewed twice.
    settleMs: ttlMs + pollMs,
    recoveryMs,
    quietTailMs: longest + recoveryMs,
    faults,
  };
}

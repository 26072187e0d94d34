/**
 * The soak's plan, from its command line: how long, how fast, how short a
 * retention, and every timing that follows from them. Pure: no clock, no I/O.
 *
 * Guarantees: bad flags throw `SoakUsageError` naming the flag; the derived
 * partition width divides a day and is at least 10 s (lib/retention/policy.ts
 * refuses anything else); the verdict window starts only after the horizon,
 * one partition width and one pruner cadence (before that, growth is expected).
 * Not guaranteed: that the machine keeps up with a high `--speed` (the
 * verdict then names what grew).
 */
import { parseArgs } from 'node:util';
import { formatDuration, parseDuration } from '../../lib/config';
import { PARTITION_WIDTH, PRUNE_EVERY, RETENTION_FLOOR_MS, RETENTION_KINDS, RETENTION_SPECS } from '../../lib/retention/policy';

const SEC = 1_000;
const MIN = 60 * SEC;
const DAY = 24 * 60 * MIN;

export class SoakUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SoakUsageError';
  }
}

/** The soak's own defaults: a short run at speed 10 with a one-minute horizon. */
const SOAK_DEFAULTS = { minutes: 3, speed: 10, horizon: '60s' } as const;

/** Unaccelerated cadences (ms) the speed divides: examples/demo/retention-planner (5 min), lib/status/thresholds (report 2 s, stall/overdue 5 min). */
const BASE = { plannerEvery: 5 * MIN, compactionEvery: 4 * MIN, reportEvery: 2 * SEC, stallAfter: 5 * MIN, overdueAfter: 5 * MIN } as const;

/**
 * Lease timing is NOT accelerated: renewals are rolled up per minute
 * (renewal_gap_hours), so renewing faster adds load but no rows, and a sub-second
 * ttl on a shared 2-core machine would measure CPU starvation, not retention.
 */
const LEASE_FLAGS = { ttl: 6_000, 'renew-every': 2_000, 'renew-deadline': 4_000, 'safety-margin': 1_000 } as const;

/** Synthetic documents the planners scan: about half expire, so ~1,000 plan items per occurrence. */
export const SOAK_DOCUMENTS = 2_000;

export interface SoakProcessSpec {
  /** Shown in the table: `planner A`, `pruner P`. */
  id: string;
  lease: string;
  label: string;
  job?: string;
  flags: Record<string, number>;
  options?: Record<string, string>;
}

export interface SoakPlan {
  durationMs: number;
  speed: number;
  horizonMs: number;
  partitionWidthMs: number;
  prunerEveryMs: number;
  /** One soak minute (60 s / speed), never under 2 s. */
  sampleEveryMs: number;
  /** Samples taken this long after the fleet is up are judged (the soak adds the server's autovacuum naptime). */
  judgeAfterMs: number;
  /** Run without the pruner: shows that the verdict fails when nothing is pruned. */
  pruner: boolean;
  /** The retention policy the pruner (and every process) is given. */
  env: Record<string, string>;
  processes: SoakProcessSpec[];
}

function positive(flag: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0) || value > max)
    throw new SoakUsageError(`--${flag}: expected a number in (0, ${max}], got ${JSON.stringify(raw)}`);
  return value;
}

/** The widest width of whole seconds that divides a day, is ≥ 10 s and ≤ a quarter of the horizon (10 s when the horizon is shorter than 40 s). */
export function partitionWidthFor(horizonMs: number): number {
  let best = PARTITION_WIDTH.minMs;
  for (let seconds = PARTITION_WIDTH.minMs / SEC; seconds * SEC <= horizonMs / 4; seconds++) {
    if ((DAY / SEC) % seconds === 0) best = seconds * SEC;
  }
  return best;
}

export function parseSoakArgs(argv: string[]): SoakPlan {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { minutes: { type: 'string' }, speed: { type: 'string' }, horizon: { type: 'string' }, 'no-pruner': { type: 'boolean' } },
    }));
  } catch (error) {
    throw new SoakUsageError((error as Error).message);
  }
  const minutes = positive('minutes', values.minutes as string | undefined, SOAK_DEFAULTS.minutes, 24 * 60);
  const speed = positive('speed', values.speed as string | undefined, SOAK_DEFAULTS.speed, 60);
  const rawHorizon = (values.horizon as string | undefined) ?? SOAK_DEFAULTS.horizon;
  let horizonMs: number | null;
  try {
    horizonMs = parseDuration(rawHorizon);
  } catch {
    horizonMs = null;
  }
  if (horizonMs === null || horizonMs < RETENTION_FLOOR_MS || horizonMs > DAY)
    throw new SoakUsageError(
      `--horizon: expected a duration from ${formatDuration(RETENTION_FLOOR_MS)} to 1d such as 60s or 5m, got ${JSON.stringify(rawHorizon)}`,
    );
  return planSoak({ durationMs: Math.round(minutes * MIN), speed, horizonMs, pruner: values['no-pruner'] !== true });
}

function planSoak(input: { durationMs: number; speed: number; horizonMs: number; pruner: boolean }): SoakPlan {
  const { durationMs, speed, horizonMs, pruner } = input;
  const partitionWidthMs = partitionWidthFor(horizonMs);
  // Half a partition width in whole seconds (the policy's variable takes whole seconds), at least its 5 s floor.
  const prunerEveryMs = Math.max(PRUNE_EVERY.minMs, Math.floor(partitionWidthMs / 2 / SEC) * SEC);
  const fast = (ms: number, floor: number) => Math.max(floor, Math.round(ms / speed));
  const reportEvery = fast(BASE.reportEvery, 100);
  const work = {
    'report-every': reportEvery,
    'stall-after': Math.max(fast(BASE.stallAfter, SEC), 4 * reportEvery),
    'overdue-after': fast(BASE.overdueAfter, SEC),
    'batch-size': 500,
    'batch-work': 50,
  };
  const planner = { ...LEASE_FLAGS, ...work, every: fast(BASE.plannerEvery, SEC) };
  const env: Record<string, string> = Object.fromEntries(RETENTION_KINDS.map((kind) => [RETENTION_SPECS[kind].env, formatDuration(horizonMs)]));
  env[PARTITION_WIDTH.env] = formatDuration(partitionWidthMs);
  env[PRUNE_EVERY.env] = formatDuration(prunerEveryMs);
  const processes: SoakProcessSpec[] = [
    { id: 'planner A', lease: 'retention-planner', label: 'A', flags: planner },
    { id: 'planner B', lease: 'retention-planner', label: 'B', flags: planner },
    { id: 'compaction C', lease: 'index-compaction', label: 'C', flags: { ...planner, every: fast(BASE.compactionEvery, SEC) } },
    { id: 'alerts E', lease: 'leaseboard-alerts', label: 'E', job: 'leaseboard-alerts', flags: { ...LEASE_FLAGS, 'report-every': reportEvery } },
  ];
  if (pruner) {
    processes.push({
      id: 'pruner P',
      lease: 'leaseboard-retention',
      label: 'P',
      job: 'leaseboard-retention',
      flags: { ...LEASE_FLAGS, 'report-every': reportEvery, every: prunerEveryMs },
    });
  }
  return {
    durationMs,
    speed,
    horizonMs,
    partitionWidthMs,
    prunerEveryMs,
    sampleEveryMs: Math.max(2 * SEC, Math.round(MIN / speed)),
    judgeAfterMs: horizonMs + partitionWidthMs + prunerEveryMs,
    pruner,
    env,
    processes,
  };
}

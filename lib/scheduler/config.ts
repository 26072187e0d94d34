/**
 * Scheduler configuration: lease timing (validated by ../lease/config.ts) plus
 * work and reporting cadence. Relations checked here, naming the field:
 * `reportEveryMs > 0`, `everyMs ≥ 1 s`, `stallAfterMs > SILENCE_FACTOR × reportEveryMs`
 * (otherwise a stall could never be told from silence).
 */
import { LeaseConfigError, type LeaseConfig, leaseConfig } from '../lease/config';
import { DEFAULT_REPORT_EVERY_MS, DEFAULT_THRESHOLDS, SILENCE_FACTOR } from '../status/thresholds';

export interface SchedulerConfig {
  readonly lease: LeaseConfig;
  /** Display label of this instance, e.g. `A`. Optional; never used for decisions. */
  readonly label: string | null;
  /** Occurrences fall due every `everyMs`, aligned to the Unix epoch. Default 5 min. */
  readonly everyMs: number;
  /** A progress report every `reportEveryMs` while holding. Default 2 s. */
  readonly reportEveryMs: number;
  /** Documents per batch. Default 500. */
  readonly batchSize: number;
  /** Simulated planning work per batch (ms) between read and fenced write. Default 100. */
  readonly batchWorkMs: number;
  /** Thresholds the status service judges this scheduler by. Defaults 5 min each. */
  readonly stallAfterMs: number;
  readonly overdueAfterMs: number;
}

export const DEFAULT_SCHEDULER = {
  everyMs: 5 * 60_000,
  reportEveryMs: DEFAULT_REPORT_EVERY_MS,
  batchSize: 500,
  batchWorkMs: 100,
  stallAfterMs: DEFAULT_THRESHOLDS.stallAfterMs,
  overdueAfterMs: DEFAULT_THRESHOLDS.overdueAfterMs,
} as const;

export type SchedulerConfigInput = Partial<Omit<SchedulerConfig, 'lease'>> & Parameters<typeof leaseConfig>[0];

export function schedulerConfig(input: SchedulerConfigInput): SchedulerConfig {
  const lease = leaseConfig(input);
  const pick = <K extends keyof typeof DEFAULT_SCHEDULER>(key: K): number => {
    const value = input[key] ?? DEFAULT_SCHEDULER[key];
    if (!Number.isInteger(value)) throw new LeaseConfigError(key, `must be whole milliseconds, got ${value}`);
    return value;
  };
  const config: SchedulerConfig = {
    lease,
    label: input.label ?? null,
    everyMs: pick('everyMs'),
    reportEveryMs: pick('reportEveryMs'),
    batchSize: pick('batchSize'),
    batchWorkMs: pick('batchWorkMs'),
    stallAfterMs: pick('stallAfterMs'),
    overdueAfterMs: pick('overdueAfterMs'),
  };
  if (config.reportEveryMs <= 0) throw new LeaseConfigError('reportEveryMs', 'must be > 0');
  if (config.everyMs < 1_000) throw new LeaseConfigError('everyMs', 'must be at least 1000 ms');
  if (config.batchSize < 1 || config.batchSize > 10_000) throw new LeaseConfigError('batchSize', 'must be 1–10000');
  if (config.batchWorkMs < 0) throw new LeaseConfigError('batchWorkMs', 'must be ≥ 0');
  if (config.stallAfterMs <= SILENCE_FACTOR * config.reportEveryMs)
    throw new LeaseConfigError('stallAfterMs', `must be > ${SILENCE_FACTOR} × reportEveryMs (${SILENCE_FACTOR * config.reportEveryMs})`);
  if (config.overdueAfterMs <= 0) throw new LeaseConfigError('overdueAfterMs', 'must be > 0');
  return Object.freeze(config);
}

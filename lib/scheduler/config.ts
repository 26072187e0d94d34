/**
 * Scheduler configuration: lease timing (validated by ../lease/config.ts) plus
 * work and reporting cadence. Relations checked here, naming the field:
 * `reportEveryMs > 0`, `everyMs ≥ 1 s` when given, `stallAfterMs > SILENCE_FACTOR × reportEveryMs`
 * (otherwise a stall could never be told from silence). What a job does per
 * batch (e.g. its batch size) is the job's own option (lib/jobs).
 */
import { checkLabels, type Labels } from '../limits/labels';
import { type LeaseConfig, leaseConfig, LeaseConfigError } from '../lease';
import { DEFAULT_REPORT_EVERY_MS, DEFAULT_THRESHOLDS, SILENCE_FACTOR } from '../status';

export interface SchedulerConfig {
  readonly lease: LeaseConfig;
  /** Display label of this instance, e.g. `A`. Optional; never used for decisions. */
  readonly label: string | null;
  /** Occurrences fall due every `everyMs`, aligned to the Unix epoch. Default null: the job's own cadence. */
  readonly everyMs: number | null;
  /** A progress report every `reportEveryMs` while holding. Default 2 s. */
  readonly reportEveryMs: number;
  /**
   * Wait this long between a batch's plan and its write or call (ms): simulated
   * work in the demo, a throttle for real jobs. Default 100. Hazard: the batch
   * carries the fence it captured before the wait; a longer wait makes a stale
   * (refused) write after a pause more likely, never an accepted one.
   */
  readonly batchWorkMs: number;
  /** Thresholds the status service judges this scheduler by. Defaults 5 min each. */
  readonly stallAfterMs: number;
  readonly overdueAfterMs: number;
  /**
   * The scheduler's labels (`{ team: 'payments' }`), declared at each registration; lists and
   * selectors (`team=payments`) find it by them. Default none. Rules: lib/limits/labels.ts (Kubernetes'
   * keys and values, at most 32). Hazard: an operator's labels, once set on the dashboard, win over
   * these until the operator hands them back; labels are shown to every viewer — no personal data.
   */
  readonly labels: Labels;
}

export const DEFAULT_SCHEDULER = {
  reportEveryMs: DEFAULT_REPORT_EVERY_MS,
  batchWorkMs: 100,
  stallAfterMs: DEFAULT_THRESHOLDS.stallAfterMs,
  overdueAfterMs: DEFAULT_THRESHOLDS.overdueAfterMs,
} as const;

export type SchedulerConfigInput = Partial<Omit<SchedulerConfig, 'lease'>> & Parameters<typeof leaseConfig>[0];

function checkedLabels(labels: Labels | undefined): Labels {
  const checked = checkLabels(labels ?? {});
  if (!checked.ok) throw new LeaseConfigError('labels', checked.message);
  return Object.freeze(checked.labels);
}

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
    everyMs: input.everyMs ?? null,
    reportEveryMs: pick('reportEveryMs'),
    batchWorkMs: pick('batchWorkMs'),
    stallAfterMs: pick('stallAfterMs'),
    overdueAfterMs: pick('overdueAfterMs'),
    labels: checkedLabels(input.labels),
  };
  if (config.reportEveryMs <= 0) throw new LeaseConfigError('reportEveryMs', 'must be > 0');
  if (config.everyMs !== null && (!Number.isInteger(config.everyMs) || config.everyMs < 1_000))
    throw new LeaseConfigError('everyMs', 'must be whole ms, at least 1000');
  if (config.batchWorkMs < 0) throw new LeaseConfigError('batchWorkMs', 'must be ≥ 0');
  if (config.stallAfterMs <= SILENCE_FACTOR * config.reportEveryMs)
    throw new LeaseConfigError('stallAfterMs', `must be > ${SILENCE_FACTOR} × reportEveryMs (${SILENCE_FACTOR * config.reportEveryMs})`);
  if (config.overdueAfterMs <= 0) throw new LeaseConfigError('overdueAfterMs', 'must be > 0');
  return Object.freeze(config);
}

/**
 * The retention policy: how long each kind of data is kept, in one place.
 *
 * Guarantees: pure (`parseRetentionPolicy(env)` reads only its argument);
 * unset or empty → the conservative default; anything else must be a
 * duration (`90s`, `45m`, `36h`, `7d`) or a count within the range of the
 * configuration schema (lib/config/settings.ts: the one home of names,
 * defaults and ranges), else `RetentionConfigError` names the variable and
 * the range. Values are refused, not clamped: a typo must stop the pruner
 * and the status service at start, not delete data. Relations are checked
 * here: lease events, which every as-of rebuild starts from, are kept at
 * least as long as the history they explain.
 * Audit trails (intent_audit, alert_mode_audit) have no entry: they are
 * never pruned automatically (they grow at human speed).
 */

import { type Env, formatDuration, type SettingKey, SETTINGS, settingsOf } from '../config';

const DAY = 24 * 60 * 60_000;

/** What the pruner prunes by age, and what the status service may answer about. */
export const RETENTION_KINDS = ['reports', 'renewals', 'rejections', 'leaseEvents', 'alertEvents', 'occurrences'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

interface KindSpec {
  /** Its setting (lib/config/settings.ts). */
  setting: SettingKey;
  env: string;
  /** The table it bounds. */
  table: string;
  /** What errors call it. */
  what: string;
}

const kind = (setting: SettingKey, table: string, what: string): KindSpec => ({ setting, env: SETTINGS[setting].env, table, what });

export const RETENTION_SPECS: Readonly<Record<RetentionKind, KindSpec>> = Object.freeze({
  reports: kind('retainReports', 'progress_reports', 'progress reports'),
  renewals: kind('retainRenewals', 'renewal_gap_hours', 'renewal history'),
  rejections: kind('retainRejections', 'stale_write_rejections', 'stale-write rejections'),
  leaseEvents: kind('retainLeaseEvents', 'lease_events', 'lease events'),
  alertEvents: kind('retainAlertEvents', 'alert_events', 'alert transitions'),
  occurrences: kind('retainOccurrences', 'occurrences', 'occurrences'),
});

/** The shortest retention accepted (the soak shrinks the horizon to a minute or two). */
export const RETENTION_FLOOR_MS = SETTINGS.retainReports.min;

/** Width of one progress_reports partition; a soak narrows it with the horizon. */
export const PARTITION_WIDTH = { env: SETTINGS.partitionWidth.env, minMs: SETTINGS.partitionWidth.min } as const;

/** How often the pruner runs. */
export const PRUNE_EVERY = { env: SETTINGS.retentionEvery.env, minMs: SETTINGS.retentionEvery.min } as const;

export interface RetentionPolicy {
  /** How long each kind is kept (ms). */
  readonly keepMs: Readonly<Record<RetentionKind, number>>;
  /** progress_reports partition width (ms; divides a day, so partitions align to UTC midnight). */
  readonly partitionWidthMs: number;
  /** The pruner's cadence (ms). */
  readonly pruneEveryMs: number;
  /** Rows per pruning batch (one short statement each). */
  readonly batchRows: number;
}

export class RetentionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetentionConfigError';
  }
}

/** "7 days", "36 hours", "5 minutes": for people (the dashboard's "no longer kept (retention …)"). */
export function describeDuration(ms: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms % DAY === 0) return plural(ms / DAY, 'day');
  if (ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  return plural(Math.round(ms / 1_000), 'second');
}

export function parseRetentionPolicy(env: Env): RetentionPolicy {
  const setting = settingsOf(env, (variable, problem) => new RetentionConfigError(`${variable}: ${problem}`));
  const keepMs = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, setting(RETENTION_SPECS[kind].setting) as number])) as Record<RetentionKind, number>;

  const batchRows = setting('retentionBatch');
  const pruneEveryMs = setting('retentionEvery');

  const partitionWidthMs = setting('partitionWidth');
  if (DAY % partitionWidthMs !== 0) throw new RetentionConfigError(`${PARTITION_WIDTH.env}: ${formatDuration(partitionWidthMs)} must divide a day`);

  const explained = (['reports', 'renewals', 'rejections'] as const).find((kind) => keepMs[kind] > keepMs.leaseEvents);
  if (explained) {
    throw new RetentionConfigError(
      `${RETENTION_SPECS.leaseEvents.env}: ${formatDuration(keepMs.leaseEvents)} is shorter than ${RETENTION_SPECS[explained].env} (${formatDuration(keepMs[explained])}); lease events explain that history and must be kept at least as long`,
    );
  }
  return Object.freeze({ keepMs: Object.freeze(keepMs), partitionWidthMs, pruneEveryMs, batchRows });
}

export const DEFAULT_RETENTION: RetentionPolicy = parseRetentionPolicy({});

/**
 * How far back `?at=` and history reach: the shortest retention among the
 * logs an as-of rebuild reads (reports, renewals, rejections, lease events).
 */
export function historyRetentionMs(policy: RetentionPolicy): number {
  const { reports, renewals, rejections, leaseEvents } = policy.keepMs;
  return Math.min(reports, renewals, rejections, leaseEvents);
}

/** The oldest instant the history still holds, given the database time `nowMs`. */
export function historyHorizonMs(policy: RetentionPolicy, nowMs: number): number {
  return nowMs - historyRetentionMs(policy);
}

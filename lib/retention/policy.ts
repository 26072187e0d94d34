/**
 * The retention policy: how long each kind of data is kept, in one place.
 *
 * Guarantees: pure (`parseRetentionPolicy(env)` reads only its argument);
 * unset or empty → the conservative default; anything else must be a
 * duration (`90s`, `45m`, `36h`, `7d`) or a count within the documented
 * range, else `RetentionConfigError` names the variable and the range.
 * Values are refused, not clamped: a typo must stop the pruner and the
 * status service at start, not delete data. Relations are checked here:
 * lease events, which every as-of rebuild starts from, are kept at least as
 * long as the history they explain.
 * Audit trails (intent_audit, alert_mode_audit) have no entry: they are
 * never pruned automatically (they grow at human speed).
 */

const SEC = 1_000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** What the pruner prunes by age, and what the status service may answer about. */
export const RETENTION_KINDS = ['reports', 'renewals', 'rejections', 'leaseEvents', 'alertEvents', 'occurrences'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

interface KindSpec {
  env: string;
  /** The table it bounds. */
  table: string;
  defaultMs: number;
  ceilingMs: number;
  /** What the README and errors call it. */
  what: string;
}

/** The shortest retention accepted (the soak shrinks the horizon to a minute or two). */
export const RETENTION_FLOOR_MS = 10 * SEC;

export const RETENTION_SPECS: Readonly<Record<RetentionKind, KindSpec>> = Object.freeze({
  reports: { env: 'LEASEBOARD_RETAIN_REPORTS', table: 'progress_reports', defaultMs: 7 * DAY, ceilingMs: 90 * DAY, what: 'progress reports' },
  renewals: { env: 'LEASEBOARD_RETAIN_RENEWALS', table: 'renewal_gap_hours', defaultMs: 7 * DAY, ceilingMs: 90 * DAY, what: 'renewal history' },
  rejections: { env: 'LEASEBOARD_RETAIN_REJECTIONS', table: 'stale_write_rejections', defaultMs: 7 * DAY, ceilingMs: 90 * DAY, what: 'stale-write rejections' },
  leaseEvents: { env: 'LEASEBOARD_RETAIN_LEASE_EVENTS', table: 'lease_events', defaultMs: 30 * DAY, ceilingMs: 365 * DAY, what: 'lease events' },
  alertEvents: { env: 'LEASEBOARD_RETAIN_ALERT_EVENTS', table: 'alert_events', defaultMs: 30 * DAY, ceilingMs: 365 * DAY, what: 'alert transitions' },
  occurrences: { env: 'LEASEBOARD_RETAIN_OCCURRENCES', table: 'occurrences', defaultMs: 7 * DAY, ceilingMs: 90 * DAY, what: 'occurrences' },
});

/** Width of one progress_reports partition; a soak narrows it with the horizon. */
export const PARTITION_WIDTH = { env: 'LEASEBOARD_PARTITION_WIDTH', defaultMs: DAY, minMs: 10 * SEC, maxMs: DAY } as const;

/** How often the pruner runs, and how many rows one of its batches deletes at most. */
export const PRUNE_EVERY = { env: 'LEASEBOARD_RETENTION_EVERY', defaultMs: MIN, minMs: 5 * SEC, maxMs: HOUR } as const;
export const PRUNE_BATCH = { env: 'LEASEBOARD_RETENTION_BATCH', default: 5_000, min: 100, max: 50_000 } as const;

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

const UNIT_MS: Record<string, number> = { s: SEC, m: MIN, h: HOUR, d: DAY };

/** `7d`, `36h`, `45m`, `90s` → ms; null for anything else. */
export function parseDuration(raw: string): number | null {
  const match = /^(\d{1,6})(s|m|h|d)$/.exec(raw.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : null;
}

/** A duration as the README writes it: whole days, hours, minutes or seconds. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', DAY],
    ['h', HOUR],
    ['m', MIN],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / SEC)}s`;
}

/** "7 days", "36 hours", "5 minutes": for people (the dashboard's "no longer kept (retention …)"). */
export function describeDuration(ms: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms % DAY === 0) return plural(ms / DAY, 'day');
  if (ms % HOUR === 0) return plural(ms / HOUR, 'hour');
  if (ms % MIN === 0) return plural(ms / MIN, 'minute');
  return plural(Math.round(ms / SEC), 'second');
}

function durationFrom(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const ms = parseDuration(raw);
  const range = `${formatDuration(min)}–${formatDuration(max)}`;
  if (ms === null) throw new RetentionConfigError(`${name}: expected a duration such as 7d, 36h or 45m (${range}), got ${JSON.stringify(raw.slice(0, 40))}`);
  if (ms < min || ms > max) throw new RetentionConfigError(`${name}: ${formatDuration(ms)} is outside ${range}`);
  return ms;
}

function countFrom(env: Readonly<Record<string, string | undefined>>, spec: { env: string; default: number; min: number; max: number }): number {
  const raw = env[spec.env];
  if (raw === undefined || raw.trim() === '') return spec.default;
  const n = /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= spec.min && n <= spec.max)) {
    throw new RetentionConfigError(`${spec.env}: expected a whole number ${spec.min}–${spec.max}, got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return n;
}

export function parseRetentionPolicy(env: Readonly<Record<string, string | undefined>>): RetentionPolicy {
  const keepMs = Object.fromEntries(
    RETENTION_KINDS.map((kind) => {
      const spec = RETENTION_SPECS[kind];
      return [kind, durationFrom(env, spec.env, spec.defaultMs, RETENTION_FLOOR_MS, spec.ceilingMs)];
    }),
  ) as Record<RetentionKind, number>;

  const batchRows = countFrom(env, PRUNE_BATCH);
  const pruneEveryMs = durationFrom(env, PRUNE_EVERY.env, PRUNE_EVERY.defaultMs, PRUNE_EVERY.minMs, PRUNE_EVERY.maxMs);

  const partitionWidthMs = durationFrom(env, PARTITION_WIDTH.env, PARTITION_WIDTH.defaultMs, PARTITION_WIDTH.minMs, PARTITION_WIDTH.maxMs);
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

/**
 * Retention: how long each kind of data is kept (./policy.ts). The pruner
 * that applies it is a job (lib/jobs/retention-pruner, lease
 * `leaseboard-retention`); the status service reads the same policy to
 * answer `410 outside_retention` past the horizon.
 */
export {
  DEFAULT_RETENTION,
  describeDuration,
  historyHorizonMs,
  historyRetentionMs,
  parseRetentionPolicy,
  RETENTION_KINDS,
  RetentionConfigError,
} from './policy';
export type { RetentionKind, RetentionPolicy } from './policy';

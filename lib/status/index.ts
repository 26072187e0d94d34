/**
 * Public API of the pure status projection. Import from `@/lib/status`.
 *
 * Guarantees: everything exported here is pure (no clock, no I/O) and safe
 * to use on the server and in the browser. The golden-file helpers live in
 * `@/lib/status/golden` so that zod stays out of the UI bundle.
 */
export { project } from './project';
export { conditionsOf } from './conditions';
export { DEFAULT_REPORT_EVERY_MS, DEFAULT_THRESHOLDS, checkThresholds, type Thresholds } from './thresholds';
export { SILENCE_FACTOR, reportBreakSql } from './report-break';
export { HEALTH_SEVERITY, compareHealth, healthRank, worstHealth, zeroCounts } from './health';
export { formatAgo, formatClock, formatDuration, formatIn } from './format';
export { formatEpoch, generationOf } from './epoch';
export {
  DEFAULT_MAX_STANDBY_LAG_MS,
  answeredTooFarBehind,
  failoverWindows,
  judgeDurability,
  type Durability,
  type DurabilityMode,
  type GrantLog,
  type ReplicationFacts,
} from './durability';
export type * from './types';
export {
  STRIP_WINDOWS,
  buildStrip,
  isStripWindow,
  stripFrame,
  unobservedCover,
  worstInWindow,
  type CellChanges,
  type Strip,
  type StripFrame,
  type StripWindow,
} from './strip';

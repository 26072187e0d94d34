/**
 * Public API of the pure alert core. Import from `@/lib/alerts`.
 *
 * Guarantees: everything exported here is pure (no clock, no I/O): `now` is
 * always an argument. Delivery (I/O) lives in `@/lib/alerts/delivery`; the
 * golden-file helpers in `@/lib/alerts/golden` (zod stays out of bundles
 * that do not need it).
 */
export { ALERT_NAMES, SCHEDULER_ALERT_NAMES, isAlertName, isSchedulerAlert, ruleInfo } from './catalogue';
export { AlertConfigError, parseAlertConfig, type AlertConfig } from './config';
export { schedulerEvidence } from './evidence';
export { silenceFormUrl } from './links';
export { modeTable, resolveMode, type ModeSetting, type ModeTable } from './modes';
export { evaluateRound, parseAlertKey, type AlertTransition } from './round';
export { reopenSends } from './reopen';
export type * from './types';

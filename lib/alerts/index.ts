/**
 * Public API of the pure alert core. Import from `@/lib/alerts`.
 *
 * Guarantees: everything exported here is pure (no clock, no I/O): `now` is
 * always an argument. Delivery (I/O) lives in `@/lib/alerts/delivery`; the
 * golden-file helpers in `@/lib/alerts/golden` (zod stays out of bundles
 * that do not need it).
 */
export {
  ALERT_NAMES,
  SCHEDULER_ALERT_NAMES,
  SERVICE_ALERT_NAMES,
  isAlertName,
  isSchedulerAlert,
  judgeScheduler,
  judgeService,
  ruleInfo,
  type RuleInfo,
} from './catalogue';
export { AlertConfigError, DEFAULT_ALERT_CONFIG, DEFAULT_TIMINGS, parseAlertConfig, timingVariables, type AlertConfig, type RuleTiming } from './config';
export { schedulerEvidence } from './evidence';
export { overviewUrl, runbookUrl, schedulerPageUrl, silenceFormUrl } from './links';
export { INACTIVE, advance, evaluate, judge, phase, type Evidence, type MachineTiming } from './machine';
export { ALERT_MODES, DEFAULT_MODE, NO_MODES, isAlertMode, modeTable, resolveMode, type ModeSetting, type ModeTable, type ResolvedMode } from './modes';
export { alertKey, alertLabels, alertmanagerAlert } from './payload';
export { evaluateRound, parseAlertKey, type AlertTransition, type RoundInput, type RoundResult } from './round';
export { reopenSends } from './reopen';
export { firingValidForMs, isDelivered, stepAlert, type Send, type StepClock, type StepResult } from './step';
export type * from './types';

/**
 * The alert rules, by name: the one list. The contract's `AlertName` enum
 * (./schemas.ts) and the rule catalogue (lib/alerts/catalogue.ts, which
 * gives each its scope, severity, timings and condition) both read it, so the
 * API can never name a rule the evaluator does not have, or miss one.
 * Here, in the contract, because lib/alerts builds on lib/api and not the
 * other way round. A module without dependencies.
 */

/** Rules that judge one scheduler (alert label `scheduler` = its lease name). */
export const SCHEDULER_ALERT_NAMES = Object.freeze([
  'SchedulerStalled',
  'SchedulerNoLeader',
  'SchedulerUnknown',
  'LeaseRenewalAtRisk',
  'StaleWritesRejected',
] as const);

/** Rules about the status service itself (no `scheduler` label). */
export const SERVICE_ALERT_NAMES = Object.freeze(['StatusStoreUnreadable', 'Watchdog'] as const);

/** Every rule: the scheduler rules, then the service rules. */
export const ALERT_NAMES = Object.freeze([...SCHEDULER_ALERT_NAMES, ...SERVICE_ALERT_NAMES] as const);

export type SchedulerAlertName = (typeof SCHEDULER_ALERT_NAMES)[number];
export type ServiceAlertName = (typeof SERVICE_ALERT_NAMES)[number];
export type AlertName = SchedulerAlertName | ServiceAlertName;

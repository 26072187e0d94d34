/**
 * Fake-time fixtures for the alert core's unit tests: instants relative to a
 * fixed start, evidence for one scheduler, a config with short timings.
 *
 * Guarantees: never the real clock; fresh objects every call.
 * Non-guarantees: test support only; not part of the public API.
 */
import { parseAlertConfig, type AlertConfig } from './config';
import type { MachineTiming } from './machine';
import type { SchedulerEvidence } from './types';

export const T0_MS = Date.parse('2026-03-01T12:00:00.000Z');
export const SEC = 1_000;
export const MIN = 60 * SEC;

/** ISO instant `ms` after T0. */
export function at(ms: number): string {
  return new Date(T0_MS + ms).toISOString();
}

export function timing(over: Partial<MachineTiming> = {}): MachineTiming {
  return { forMs: 60 * SEC, keepFiringForMs: 0, resolvedRetentionMs: 15 * MIN, ...over };
}

export function evidence(over: Partial<SchedulerEvidence> = {}): SchedulerEvidence {
  return { scheduler: 'retention-planner', health: 'progressing', atRisk: false, storeReadable: true, lastRejectionAt: null, reasons: [], ...over };
}

/** Defaults, with the dashboard at https://ops.example/leaseboard. */
export function config(env: Record<string, string> = {}): AlertConfig {
  return parseAlertConfig({ LEASEBOARD_EXTERNAL_URL: 'https://ops.example/leaseboard/', ...env });
}

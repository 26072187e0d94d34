/**
 * Thresholds of the status projection, their defaults, and input checks.
 *
 * Guarantees: `checkThresholds` rejects every value the rules cannot use,
 * naming the field; `gapAfterFor` applies the documented default
 * (the report-break rule's silence, ./report-break.ts: SILENCE_FACTOR × the
 * cadence of the epoch's last report). Pure: no clock, no I/O.
 * Non-guarantees: an explicit `gapAfterMs` other than SILENCE_FACTOR ×
 * reportEvery disagrees with the store's `silence` breaks; only tests set one.
 */

import { silenceAfterMs } from './report-break';
import { StatusInputError } from './time';

export interface Thresholds {
  /**
   * An in-flight occurrence whose last advance is older than this (strict >)
   * is stalled, given continuous reports. Must be > 0. Default 5 min.
   * Hazard: shorter than the longest legitimate batch → false stalls.
   */
  stallAfterMs: number;
  /**
   * An unstarted occurrence due for longer than this (strict >) is overdue.
   * Must be ≥ 0. Default 5 min.
   */
  overdueAfterMs: number;
  /**
   * A held lease is at risk when renewal age > this fraction of ttl (strict).
   * In (0, 1]. Default 2/3.
   */
  atRiskFraction: number;
  /**
   * Report silence longer than this (strict >) is an observation gap.
   * Must be > 0. Default: SILENCE_FACTOR × progress.reportEveryMs.
   * Hazard: ≥ stallAfterMs means a stall can never be proven (reads unknown).
   */
  gapAfterMs?: number;
}

/**
 * How often a holder reports progress unless configured otherwise. The one
 * home of that default: the runtime (lib/scheduler/config.ts) and the reads
 * that need a cadence before any registration or report names one.
 */
export const DEFAULT_REPORT_EVERY_MS = 2_000;

/** The status service's judging defaults; the runtime registers the same unless configured. */
export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  stallAfterMs: 5 * 60_000,
  overdueAfterMs: 5 * 60_000,
  atRiskFraction: 2 / 3,
});

function finite(field: string, value: number): void {
  if (!Number.isFinite(value)) throw new StatusInputError(`${field} must be a finite number, got ${value}`);
}

/** Throws StatusInputError naming the first field that breaks its relation. */
export function checkThresholds(t: Thresholds): Thresholds {
  finite('stallAfterMs', t.stallAfterMs);
  if (t.stallAfterMs <= 0) throw new StatusInputError(`stallAfterMs must be > 0, got ${t.stallAfterMs}`);
  finite('overdueAfterMs', t.overdueAfterMs);
  if (t.overdueAfterMs < 0) throw new StatusInputError(`overdueAfterMs must be ≥ 0, got ${t.overdueAfterMs}`);
  finite('atRiskFraction', t.atRiskFraction);
  if (t.atRiskFraction <= 0 || t.atRiskFraction > 1) {
    throw new StatusInputError(`atRiskFraction must be in (0, 1], got ${t.atRiskFraction}`);
  }
  if (t.gapAfterMs !== undefined) {
    finite('gapAfterMs', t.gapAfterMs);
    if (t.gapAfterMs <= 0) throw new StatusInputError(`gapAfterMs must be > 0, got ${t.gapAfterMs}`);
  }
  return t;
}

/** The silence threshold for an epoch reporting every `reportEveryMs`. */
export function gapAfterFor(t: Thresholds, reportEveryMs: number): number {
  if (t.gapAfterMs !== undefined) return t.gapAfterMs;
  finite('progress.reportEveryMs', reportEveryMs);
  if (reportEveryMs <= 0) throw new StatusInputError(`progress.reportEveryMs must be > 0, got ${reportEveryMs}`);
  return silenceAfterMs(reportEveryMs);
}

/**
 * Fake-time fixtures for the projection's unit tests: facts built relative to
 * a fixed instant, never the real clock.
 *
 * Guarantees: every builder returns fresh objects (tests may not leak state);
 * defaults describe a healthy holder (epoch 7, renewed 1 s ago, reporting
 * every 2 s, advanced 3 s ago, one occurrence in flight).
 * Non-guarantees: test support only; not part of the public API.
 */
import type { Thresholds } from './thresholds';
import type { ReplicationFacts } from './durability';
import type { LeaseFacts, ProgressFacts, SchedulerFacts } from './types';

export const NOW_MS = Date.parse('2026-11-30T12:00:00.000Z');
export const NOW = new Date(NOW_MS).toISOString();
export const SEC = 1_000;
export const MIN = 60 * SEC;

/** The golden file's thresholds: stall 1 min, overdue 1 min, at risk > ½ ttl; gapAfter = 3 × 2 s. */
export const T: Thresholds = { stallAfterMs: MIN, overdueAfterMs: MIN, atRiskFraction: 0.5 };

/** ISO time `ms` before `base` (default NOW). */
export function ago(ms: number, base: number = NOW_MS): string {
  return new Date(base - ms).toISOString();
}

/** ISO time `ms` after `base` (default NOW). */
export function later(ms: number, base: number = NOW_MS): string {
  return new Date(base + ms).toISOString();
}

export function lease(over: Partial<LeaseFacts> = {}): LeaseFacts {
  return {
    name: 'retention-planner',
    holder: 'inst_7kq2m9xd',
    label: 'A',
    epoch: 7,
    acquiredAt: ago(10 * MIN),
    renewedAt: ago(1 * SEC),
    expiresAt: later(14 * SEC),
    ttlMs: 15 * SEC,
    released: false,
    ...over,
  };
}

export function progress(over: Partial<ProgressFacts> = {}): ProgressFacts {
  return {
    epoch: 7,
    lastReportAt: ago(1 * SEC),
    lastSeq: 300,
    lastAdvanceAt: ago(3 * SEC),
    inFlight: 'retention-planner@2026-11-30T11:58:00Z',
    cursor: 42,
    reportEveryMs: 2 * SEC,
    gap: null,
    ...over,
  };
}

export function facts(over: Partial<SchedulerFacts> = {}): SchedulerFacts {
  return {
    name: 'retention-planner',
    store: { ok: true },
    lease: lease(),
    intent: null,
    progress: progress(),
    due: null,
    ...over,
  };
}

/** A primary's replication facts: node-1, generation 0, no standby, synchronous_commit on. */
export function primaryFacts(over: Partial<Extract<ReplicationFacts, { role: 'primary' }>> = {}): ReplicationFacts {
  return {
    role: 'primary',
    node: 'node-1',
    generation: 0,
    standbys: { synchronous: 0, asynchronous: 0, hidden: 0 },
    synchronousStandbyNamesSet: false,
    synchronousCommit: 'on',
    standbyReplayLagMs: null,
    standbyLagBytes: null,
    ...over,
  };
}

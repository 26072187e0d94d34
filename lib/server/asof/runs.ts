/**
 * A scheduler's runs: the next occurrence (lib/status `nextRun`) and the
 * newest runs kept (occurrences: duration, outcome, exit code).
 *
 * Guarantees: one statement (the database's now, the cadence, whether the
 * current slot's occurrence ended, the newest `limit` occurrences by
 * scheduled instant); unknown scheduler → not_found. A run still in flight has
 * no end and no duration; "run now" occurrences are listed like any other.
 * Non-guarantee: runs older than the occurrences' retention (folded into
 * hours by the pruner) are not listed.
 */
import type { SchedulerRunsResponse } from '../../api/types';
import { nextRun } from '../../status/next-run';
import { toIso as iso } from '../../status/time';
import { failed, okResult, type ReadResult, UNKNOWN_SCHEDULER } from '../domain/result';
import { unreadableResult } from '../store/deadline';
import type { ReadDeps } from './detail';

export const RUNS_LIMIT_DEFAULT = 20;
export const RUNS_LIMIT_MAX = 100;

/**
 * SQL: whether `lease`'s current slot (now, as the runtime's slots are: a multiple of the cadence since the
 * epoch, lib/status/next-run.ts) has started — an occurrence row for it, running or ended. One text for the
 * runs and the next hour, so both say "due" alike.
 */
export const currentSlotStartedSql = (lease: string, everyMs: string, now: string) =>
  `EXISTS (SELECT 1 FROM occurrences o WHERE o.lease = ${lease}
          AND o.scheduled_at = to_timestamp(floor(extract(epoch FROM ${now}) * 1000 / ${everyMs}) * ${everyMs} / 1000.0))`;

const RUNS_SQL = `
WITH c AS (SELECT clock_timestamp() AS now),
  s AS (SELECT every_ms FROM schedulers WHERE name = $1)
SELECT floor(extract(epoch FROM c.now) * 1000)::float8 AS now_ms,
  EXISTS (SELECT 1 FROM schedulers WHERE name = $1 UNION ALL SELECT 1 FROM leases WHERE name = $1) AS known,
  (SELECT every_ms FROM s) AS every_ms,
  ${currentSlotStartedSql('$1', '(SELECT every_ms FROM s)', 'c.now')} AS current_started,
  (SELECT COALESCE(json_agg(r ORDER BY r.scheduled_ms DESC), '[]') FROM (
     SELECT o.key, o.epoch::float8 AS epoch, o.state, o.exit_code, floor(extract(epoch FROM o.scheduled_at) * 1000)::float8 AS scheduled_ms,
            floor(extract(epoch FROM o.claimed_at) * 1000)::float8 AS claimed_ms, floor(extract(epoch FROM o.completed_at) * 1000)::float8 AS ended_ms
     FROM occurrences o WHERE o.lease = $1 ORDER BY o.scheduled_at DESC LIMIT $2) r) AS runs
FROM c`;

interface RunRow {
  key: string;
  epoch: number;
  state: 'running' | 'completed' | 'failed';
  exit_code: number | null;
  scheduled_ms: number;
  claimed_ms: number;
  ended_ms: number | null;
}

export async function readRuns(deps: ReadDeps, name: string, limit: number): Promise<ReadResult<SchedulerRunsResponse>> {
  let row: { now_ms: number; known: boolean; every_ms: number | null; current_started: boolean; runs: RunRow[] };
  try {
    row = await deps.observer.read(
      'runs read',
      async () => (await deps.db.query({ text: RUNS_SQL, values: [name, limit] })).rows[0] as typeof row,
      (r) => r.now_ms,
    );
  } catch (error) {
    return unreadableResult(error);
  }
  if (!row.known) return failed(UNKNOWN_SCHEDULER);
  const next = nextRun(row.every_ms, row.now_ms, row.current_started);
  return okResult({
    observedAt: iso(row.now_ms),
    everyMs: row.every_ms,
    next: next.kind === 'slot' ? { kind: 'slot', at: iso(next.atMs), due: next.due } : { kind: 'whenever', message: 'whenever the holder next runs' },
    runs: row.runs.map((r) => ({
      key: r.key,
      epoch: r.epoch,
      scheduledAt: iso(r.scheduled_ms),
      startedAt: iso(r.claimed_ms),
      endedAt: r.ended_ms === null ? null : iso(r.ended_ms),
      durationMs: r.ended_ms === null ? null : Math.max(0, r.ended_ms - r.claimed_ms),
      outcome: r.state,
      exitCode: r.exit_code,
    })),
  });
}

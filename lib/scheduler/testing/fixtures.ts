// Test fixtures for real scheduler processes: short timings and cleanup.
import type pg from 'pg';
import { afterEach, expect } from 'vitest';
import { SchedulerProcess } from '../../child/scheduler-process';
import { schedulerProgramFor } from '../../../examples/demo/demo-scheduler';
import { FAST_FLAGS } from './fast-flags';

export { FAST_FLAGS };

/** Spawns scheduler processes and stops every one after each test. */
export function useSchedulers(databaseUrl: () => string) {
  const started: SchedulerProcess[] = [];
  afterEach(async () => {
    const codes = await Promise.all(started.splice(0).map((process) => process.stop()));
    for (const code of codes) expect([0, null]).toContain(code);
  });
  return (
    lease: string,
    label: string,
    flags: Record<string, number> = {},
    options: { job?: string; options?: Record<string, string>; env?: Record<string, string> } = {},
  ) => {
    // No job named: the demo's retention planner, a job with real batches to freeze, pause and fence.
    const { job, ...rest } = options;
    const process = new SchedulerProcess({
      lease,
      label,
      databaseUrl: databaseUrl(),
      flags: { ...FAST_FLAGS, ...flags },
      ...rest,
      ...schedulerProgramFor(job),
    });
    started.push(process);
    return process;
  };
}

/**
 * How long a just-spawned process may take to come up (start Node, connect, get its token) before a test
 * calls it broken: seconds on a quiet machine, past 15 s at a load average of 17 on two cores. Its start
 * is not what such a test checks.
 */
export const PROCESS_START_MS = 60_000;

export async function poll<T>(read: () => Promise<T>, until: (value: T) => boolean, timeoutMs = 15_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface LeaseRowView {
  holder: string;
  epoch: number;
  renewedAt: number;
  live: boolean;
}

export async function leaseRow(db: Pick<pg.Pool, 'query'>, lease: string): Promise<LeaseRowView | null> {
  const { rows } = await db.query(
    `SELECT holder, epoch::float8 AS epoch, extract(epoch FROM renewed_at) * 1000 AS renewed_ms,
            released_at IS NULL AND expires_at > clock_timestamp() AS live FROM leases WHERE name = $1`,
    [lease],
  );
  const row = rows[0];
  return row ? { holder: row.holder, epoch: row.epoch, renewedAt: Number(row.renewed_ms), live: row.live } : null;
}

export async function summaryRow(db: Pick<pg.Pool, 'query'>, lease: string) {
  const { rows } = await db.query(
    `SELECT epoch::float8 AS epoch, last_seq, cursor::float8 AS cursor, in_flight, gap_reason,
            extract(epoch FROM last_report_at) * 1000 AS last_report_ms FROM progress_summaries WHERE lease = $1`,
    [lease],
  );
  return rows[0] as
    { epoch: number; last_seq: number; cursor: number | null; in_flight: string | null; gap_reason: string | null; last_report_ms: number } | undefined;
}

/**
 * Plan items of `lease` whose write time lies outside their epoch's tenure.
 * Tenures from lease_events: an epoch runs from its grant to previous_ended_at
 * of the grant that ended it (whose previous_epoch it is: after a failover
 * that is not epoch + 1), its release, or (the current one) the lease row's end.
 */
export async function planItemsOutsideTenure(db: Pick<pg.Pool, 'query'>, lease: string) {
  const { rows } = await db.query<{ outside: number; total: number }>(
    `WITH tenure AS (
       SELECT e.epoch, e.at AS start,
              coalesce(n.previous_ended_at, r.at, CASE WHEN l.epoch = e.epoch THEN coalesce(l.released_at, l.expires_at) END) AS finish
       FROM lease_events e
       LEFT JOIN lease_events n ON n.lease = e.lease AND n.previous_epoch = e.epoch AND n.kind <> 'released'
       LEFT JOIN lease_events r ON r.lease = e.lease AND r.epoch = e.epoch AND r.kind = 'released'
       JOIN leases l ON l.name = e.lease
       WHERE e.lease = $1 AND e.kind <> 'released')
     SELECT count(*) FILTER (WHERE t.epoch IS NULL OR NOT (x.written_at >= t.start AND x.written_at < t.finish))::int AS outside,
            count(*)::int AS total
     FROM leaseboard_demo.plan_items x LEFT JOIN tenure t ON t.epoch = x.epoch WHERE x.lease = $1`,
    [lease],
  );
  return rows[0]!;
}

/** Runs one occurrence of `job` in this process under a test-unique lease `lease`; resolves with its events once it completed (or failed). */
export async function runOneOccurrence(
  job: import('../job').Job,
  lease: string,
  deps: { db: pg.Pool; readDb: import('../../../db/pool').ReadOnlyPool },
): Promise<import('../events').RuntimeEvent[]> {
  const { SchedulerRuntime } = await import('../runtime');
  const { schedulerConfig } = await import('../config');
  const events: import('../events').RuntimeEvent[] = [];
  const runtime = new SchedulerRuntime(job, schedulerConfig({ name: lease, batchWorkMs: 0 }), { ...deps, onEvent: (e) => events.push(e) });
  runtime.start();
  try {
    await poll(
      async () => events,
      (seen) => seen.some((e) => e.event === 'occurrence_completed' || e.event === 'error'),
      120_000,
    );
  } finally {
    await runtime.stop();
  }
  return events;
}

import type pg from 'pg';
import { isoUs } from '../../../../db/testing/pools';
import { DEFAULT_REPORT_EVERY_MS, DEFAULT_THRESHOLDS } from '../../../status/thresholds';
import { LOGS_SQL } from '../logs-sql';

/**
 * Test-only: the logs read (LOGS_SQL) of one scheduler for the span [from, to] in µs, one bucket
 * ending at `to`, default thresholds, `limit` events and transitions, alerts of `rules`; its one row.
 */
export async function logsForSpan(
  db: Pick<pg.PoolClient, 'query'>,
  name: string,
  span: { fromUs: number; toUs: number; limit: number; rules?: readonly string[] },
): Promise<Record<string, unknown>> {
  const { rows } = await db.query(LOGS_SQL, [
    name,
    isoUs(span.fromUs),
    isoUs(span.toUs),
    [isoUs(span.toUs)],
    60_000,
    DEFAULT_THRESHOLDS.stallAfterMs,
    DEFAULT_REPORT_EVERY_MS,
    span.limit,
    span.rules ?? [],
  ]);
  return rows[0] as Record<string, unknown>;
}

/**
 * What starts in the next hour, fleet-wide: every registered scheduler whose
 * next occurrence (lib/status `nextRun`) falls within the hour — due now, or
 * its next slot — filtered by a label selector, soonest first.
 *
 * Guarantees: one statement (per scheduler one index probe of occurrences for
 * the current slot); a scheduler disabled by an operator is listed with
 * `disabled` (nothing starts until it is enabled); a scheduler nobody holds
 * is listed (its next holder claims the slot) with `held: false`. The
 * soonest `limit` are sent, with how many start within the hour in all
 * (`total`): at 10,000 schedulers on minute cadences, all of them do.
 */
import type { UpcomingResponse } from '../../api/types';
import { nextRun } from '../../status/next-run';
import { toIso as iso } from '../../status/time';
import type { SchedulerLabels } from '../../status/types';
import { okResult, type ReadResult } from '../domain/result';
import { unreadableResult } from '../store/deadline';
import type { ReadDeps } from './detail';
import { currentSlotStartedSql } from './runs';

const HOUR_MS = 3_600_000;
export const UPCOMING_LIMIT_DEFAULT = 200;
export const UPCOMING_LIMIT_MAX = 1_000;

const UPCOMING_SQL = `
WITH c AS (SELECT clock_timestamp() AS now)
SELECT floor(extract(epoch FROM c.now) * 1000)::float8 AS now_ms,
  (SELECT COALESCE(json_agg(json_build_object(
      'name', s.name, 'every_ms', s.every_ms, 'labels', COALESCE(lb.labels, s.labels),
      'disabled', COALESCE(i.disabled, false),
      'held', EXISTS (SELECT 1 FROM leases l WHERE l.name = s.name AND l.released_at IS NULL AND l.expires_at > c.now),
      'current_started', ${currentSlotStartedSql('s.name', 's.every_ms', 'c.now')})), '[]')
   FROM schedulers s LEFT JOIN label_overrides lb ON lb.name = s.name LEFT JOIN scheduler_intents i ON i.lease = s.name) AS schedulers
FROM c`;

interface Row {
  name: string;
  every_ms: number;
  labels: SchedulerLabels;
  disabled: boolean;
  held: boolean;
  current_started: boolean;
}

export async function readUpcoming(deps: ReadDeps, picks: ((labels: SchedulerLabels) => boolean) | null, limit: number): Promise<ReadResult<UpcomingResponse>> {
  let read: { now_ms: number; schedulers: Row[] };
  try {
    read = await deps.observer.read(
      'upcoming read',
      async () => (await deps.db.query({ text: UPCOMING_SQL })).rows[0] as typeof read,
      (r) => r.now_ms,
    );
  } catch (error) {
    return unreadableResult(error);
  }
  const until = read.now_ms + HOUR_MS;
  const runs = read.schedulers
    .filter((s) => picks === null || picks(s.labels))
    .flatMap((s) => {
      const next = nextRun(s.every_ms, read.now_ms, s.current_started);
      return next.kind === 'slot' && next.atMs <= until ? [{ s, next }] : [];
    })
    .sort((a, b) => a.next.atMs - b.next.atMs || (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0));
  return okResult({
    observedAt: iso(read.now_ms),
    until: iso(until),
    total: runs.length,
    runs: runs
      .slice(0, limit)
      .map(({ s, next }) => ({ name: s.name, at: iso(next.atMs), due: next.due, everyMs: s.every_ms, disabled: s.disabled, held: s.held })),
  });
}

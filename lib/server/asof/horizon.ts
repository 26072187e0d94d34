/**
 * The history horizon: how far back `?at=` and history reach, from the
 * retention policy (lib/retention) and the database's time of the read.
 *
 * Guarantees: pure; an instant AT or after `historyHorizonMs(policy, nowMs)`
 * is inside (answered as before), one millisecond earlier is outside and
 * refused as `outside_retention` (410), whose message names the oldest
 * instant kept (ISO) and the retention ("kept 7 days") and whose `retention`
 * field carries both for machines (the dashboard's "no longer kept
 * (retention 7 days)").
 * Clock: `nowMs` is the database's time of the same read, never the server's.
 * Non-guarantees: the pruner deletes on its own schedule, so rows slightly
 * older than the horizon may still exist; they are not answered about.
 */
import { describeDuration, historyHorizonMs, historyRetentionMs, type RetentionPolicy } from '../../retention';
import type { ReadError } from '../domain/result';
import { toIso as iso } from '../../status/time';

/** The refusal for `field` (e.g. `at`, `from`) when `instantMs` is older than what is kept, else null. */
export function outsideRetention(field: string, instantMs: number, policy: RetentionPolicy, nowMs: number): ReadError | null {
  const horizonMs = historyHorizonMs(policy, nowMs);
  if (instantMs >= horizonMs) return null;
  const keptMs = historyRetentionMs(policy);
  const keptFor = describeDuration(keptMs);
  const oldestKept = iso(horizonMs);
  return {
    kind: 'outside_retention',
    message: `${field}: ${iso(instantMs)} is no longer kept; the oldest instant kept is ${oldestKept} (kept ${keptFor})`,
    retention: { oldestKept, keptMs, keptFor },
  };
}

/**
 * The reads behind an incident report (./incident-entries.ts): one
 * scheduler's logs over [from, to] as history reads them (./asof/logs.ts,
 * rebuilt by ./asof/history.ts `buildHistory`), its refused stale writes
 * (./asof/recent-sql.ts), its audited operator actions (./audit/read.ts)
 * and the maintenance windows kept that cover it (../alerts/store/maintenance.ts).
 *
 * Guarantees: the range is refused before the store is read when it is
 * inverted (`invalid_span`) or longer than 31 days (`range_too_long`); then,
 * against the database's now, a `from` not before now (`invalid_span`) or
 * older than the history kept (`outside_retention`); `to` after now is
 * clamped to now. Every list is bounded (lease events by the logs read's
 * limit, refusals by REJECTIONS_MAX, audit by AUDIT_LIMIT_MAX newest of the
 * scheduler); `truncated` says when one hit its cap.
 * Non-guarantees: six statements, not one snapshot: a write landing between
 * them may show in one list and not another.
 */
import type { StaleWriteRejection } from '../api/types';
import { toIso as iso } from '../status/time';
import type { ReadDeps } from './asof/detail';
import { BIRTH_SQL, bucketEnds, bucketMsFor, buildHistory } from './asof/history';
import { outsideRetention } from './asof/horizon';
import { EVENT_LIMIT, readLogs } from './asof/logs';
import { RECENT_SQL } from './asof/recent-sql';
import { AUDIT_LIMIT_MAX, readAudit } from './audit/read';
import { failed, okResult, type ReadResult, UNKNOWN_SCHEDULER } from './domain/result';
import { incidentSpanRefusal } from './asof/incident-span';
import { unreadableResult } from './store/deadline';
import { type IncidentFacts, maintenanceSpans } from './incident-entries';
import { readLabelsOf, readWindowList } from '../alerts/store/maintenance';

/** Health is judged at this many bucket ends at most (a 31-day range: every ~2 h; an hour: every 10 s). */
const INCIDENT_HEALTH_POINTS = 360;
const REJECTIONS_MAX = 1_000;

type RejectionRow = { at_ms: number; attempted_epoch: number; current_epoch: number | null; resource: string; reason: StaleWriteRejection['reason'] };

export async function readIncident(deps: ReadDeps, name: string, fromMs: number, toMs: number): Promise<ReadResult<IncidentFacts>> {
  const refusal = incidentSpanRefusal(fromMs, toMs);
  if (refusal !== null) return failed(refusal);
  let read: { result: ReadResult<IncidentFacts>; nowMs: number };
  try {
    read = await deps.observer.read(
      'incident read',
      async () => {
        const birth = (await deps.db.query({ text: BIRTH_SQL, values: [name] })).rows[0] as { now_ms: number; born_ms: number | null };
        const nowMs = birth.now_ms;
        if (fromMs >= nowMs)
          return { result: failed<IncidentFacts>({ kind: 'invalid', code: 'invalid_span', message: "from: after the database's current time" }), nowMs };
        const outside = outsideRetention('from', fromMs, deps.retention, nowMs);
        if (outside !== null) return { result: failed<IncidentFacts>(outside), nowMs };
        const endMs = Math.min(toMs, nowMs);
        const bucketMs = bucketMsFor(endMs - fromMs, INCIDENT_HEALTH_POINTS);
        const logs = await readLogs(deps.db, name, { fromMs, toMs: endMs, ends: bucketEnds(fromMs, endMs, bucketMs), bucketMs });
        if (!logs.known) return { result: failed<IncidentFacts>(UNKNOWN_SCHEDULER), nowMs };
        const recent = (await deps.db.query({ text: RECENT_SQL, values: [name, iso(endMs), 1, REJECTIONS_MAX] })).rows[0] as {
          rejections: RejectionRow[] | null;
        };
        const rejections = (recent.rejections ?? []).map((r) => ({
          at: iso(r.at_ms),
          attemptedEpoch: r.attempted_epoch,
          currentEpoch: r.current_epoch,
          resource: r.resource,
          reason: r.reason,
        }));
        const audit = await readAudit(deps.db, { scheduler: name, limit: AUDIT_LIMIT_MAX });
        const [windows, labels] = await Promise.all([readWindowList(deps.db), readLabelsOf(deps.db, [name])]);
        const maintenance = maintenanceSpans(windows.windows, name, labels.get(name) ?? {}, fromMs, endMs);
        const inSpan = logs.events.filter((e) => e.at_ms >= fromMs && e.at_ms <= endMs).length;
        const truncated =
          inSpan >= EVENT_LIMIT ||
          (rejections.length >= REJECTIONS_MAX && Date.parse(rejections.at(-1)!.at) >= fromMs) ||
          (audit.entries.length >= AUDIT_LIMIT_MAX && Date.parse(audit.entries.at(-1)!.at) >= fromMs);
        const history = buildHistory({ ...logs, bornMs: birth.born_ms });
        return {
          result: okResult({
            name,
            fromMs,
            toMs: endMs,
            nowMs,
            history,
            events: logs.events,
            rejections,
            alerts: logs.alerts,
            audit: audit.entries,
            maintenance,
            truncated,
          }),
          nowMs,
        };
      },
      (r) => r.nowMs,
    );
  } catch (error) {
    return unreadableResult(error);
  }
  return read.result;
}

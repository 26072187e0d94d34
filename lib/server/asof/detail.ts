/**
 * GET /api/v1/schedulers/{name}[?at=ISO]: one status with recent transitions
 * and stale-write rejections — live, or rebuilt as of `at` from the logs.
 *
 * Guarantees: two statements per call (facts or logs, then recent events and
 * rejections), both under the observer's deadline; unknown names → 404 (the
 * name is only ever a bound parameter); `at` after the database's now → 400
 * `at_in_future`, older than the retention horizon (./horizon.ts, the
 * database's now) → 410 `outside_retention` naming the oldest instant kept; the store
 * unreadable → 503 `store_unreadable`. As-of statuses list their estimated
 * fields (see ./facts-at.ts). Every rule comes from lib/status `project`.
 * Alerts: live, the scheduler's stored alert state with the modes in force;
 * as of `at`, which were pending or firing then (../alerts/view.ts) — both
 * within the same two statements.
 */
import type { SchedulerAlert, SchedulerAlertMode, SchedulerDetailResponse, StaleWriteRejection } from '../../api/types';
import { modeTable, resolveMode, SCHEDULER_ALERT_NAMES } from '../../alerts';
import { toStoredModes, type ModeRow } from '../../alerts/store/modes';
import { toStoredAlerts, type StateRow } from '../../alerts/store/state';
import { alertsAt, liveAlert } from '../alerts/view';
import { project } from '../../status';
import { factsAt, ReportStates } from './facts-at';
import { StoreUnreadableError } from '../store/deadline';
import { readOneFacts, thresholdsFor, type Queryable } from '../live/facts';
import { readLogs, type SchedulerLogs } from './logs';
import type { StoreObserver } from '../store/observer';
import { checkName, parseInstant } from '../http/params';
import type { RetentionPolicy } from '../../retention';
import { outsideRetention } from './horizon';
import { errorResult, okResult, type ReadResult, type ServiceError } from '../http/result';
import { RECENT_SQL } from './recent-sql';
import { currentLease, rebuildTenures, toApiTenure, type LeaseEventLog, type TenureLog } from './tenures';
import { toIso as iso } from '../../status/time';

export interface ReadDeps {
  db: Queryable;
  observer: StoreObserver;
  pollIntervalMs: number;
  /** The first ALERTMANAGER_URL, for silence links (null: none). */
  alertmanagerUrl: string | null;
  /** How long history is kept: instants before its horizon answer 410. */
  retention: RetentionPolicy;
}

export const TRANSITIONS_MAX = 20;
export const REJECTIONS_MAX = 50;
const EVENTS_READ = 2 * TRANSITIONS_MAX + 2;

interface RecentRow {
  events: LeaseEventLog[] | null;
  rejections: { at_ms: number; attempted_epoch: number; current_epoch: number | null; resource: string; reason: StaleWriteRejection['reason'] }[] | null;
  /** Live only: the scheduler's alert_state rows and the modes that apply to it. */
  alerts: StateRow[] | null;
  modes: ModeRow[] | null;
}

/** The mode in force for each scheduler rule here (live), with its source. */
function modesHere(row: RecentRow, name: string): SchedulerAlertMode[] {
  const modes = modeTable(toStoredModes(row.modes ?? []));
  return SCHEDULER_ALERT_NAMES.map((rule) => {
    const resolved = resolveMode(modes, rule, name);
    return { rule, mode: resolved.mode, source: resolved.source, setting: resolved.setting };
  });
}

/** The scheduler's current alerts (live): firing first, then pending, then resolved; rule order within. */
function currentAlerts(row: RecentRow, alertmanagerUrl: string | null): SchedulerAlert[] {
  const modes = modeTable(toStoredModes(row.modes ?? []));
  const order = { firing: 0, pending: 1, resolved: 2 } as const;
  return toStoredAlerts(row.alerts ?? [])
    .map((a) => liveAlert(a, modes, alertmanagerUrl))
    .filter((a): a is SchedulerAlert => a !== null)
    .sort((a, b) => order[a.state] - order[b.state] || (a.rule < b.rule ? -1 : 1));
}

async function readRecent(db: Queryable, name: string, untilMs: number | null): Promise<RecentRow> {
  const { rows } = await db.query({
    name: 'status_recent',
    text: RECENT_SQL,
    values: [name, untilMs === null ? 'infinity' : iso(untilMs), EVENTS_READ, REJECTIONS_MAX],
  });
  return rows[0] as RecentRow;
}

export function storeUnreadable<T>(error: unknown): ReadResult<T> {
  if (!(error instanceof StoreUnreadableError)) throw error;
  return errorResult(503, 'store_unreadable', error.reason === 'timeout' ? 'the status store did not answer in time' : 'the status store could not be read');
}

/** Newest first, at most TRANSITIONS_MAX; tenures not yet ended at `asOfMs` are shown open. */
function transitions(tenures: TenureLog[], asOfMs: number) {
  return tenures
    .filter((t) => t.fromMs <= asOfMs)
    .map((t) => (t.toMs !== null && t.toMs > asOfMs ? { ...t, toMs: null, ended: null } : t))
    .reverse()
    .slice(0, TRANSITIONS_MAX)
    .map(toApiTenure);
}

function rejections(row: RecentRow): StaleWriteRejection[] {
  return (row.rejections ?? []).map((r) => ({
    at: iso(r.at_ms),
    attemptedEpoch: r.attempted_epoch,
    currentEpoch: r.current_epoch,
    resource: r.resource,
    reason: r.reason,
  }));
}

export async function readDetail(deps: ReadDeps, rawName: string, rawAt?: string | null): Promise<ReadResult<SchedulerDetailResponse>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  if (rawAt !== undefined && rawAt !== null) {
    const at = parseInstant(rawAt, 'at');
    return at.ok ? readDetailAsOf(deps, name.value, at.value) : at;
  }
  try {
    const read = await deps.observer.read(
      'detail read',
      async () => {
        const facts = await readOneFacts(deps.db, name.value);
        return { facts, recent: facts.schedulers.length === 0 ? null : await readRecent(deps.db, name.value, null) };
      },
      (r) => Date.parse(r.facts.now),
    );
    const one = read.facts.schedulers[0];
    if (one === undefined || read.recent === null) return errorResult(404, 'unknown_scheduler', 'no scheduler with that name');
    const nowMs = Date.parse(read.facts.now);
    const current = currentLease(one.facts.lease);
    return okResult({
      observedAt: read.facts.now,
      observation: { ok: true, lastObservedAt: read.facts.now },
      pollIntervalMs: deps.pollIntervalMs,
      asOf: null,
      status: project(one.facts, read.facts.now, one.thresholds),
      transitions: transitions(rebuildTenures(read.recent.events ?? [], current, nowMs), nowMs),
      rejections: rejections(read.recent),
      estimated: [],
      alerts: currentAlerts(read.recent, deps.alertmanagerUrl),
      alertModes: modesHere(read.recent, name.value),
    });
  } catch (error) {
    return storeUnreadable(error);
  }
}

/** Why the logs cannot answer about `atMs`: unknown name (404), the future (400), past the horizon (410); null: they can. */
function asOfRefusal(logs: SchedulerLogs, atMs: number, retention: RetentionPolicy): ServiceError | null {
  if (!logs.known) return { status: 404, code: 'unknown_scheduler', message: 'no scheduler with that name' };
  if (atMs > logs.nowMs) return { status: 400, code: 'at_in_future', message: `at: after the database's current time ${iso(logs.nowMs)}` };
  return outsideRetention('at', atMs, retention, logs.nowMs);
}

async function readDetailAsOf(deps: ReadDeps, name: string, atMs: number): Promise<ReadResult<SchedulerDetailResponse>> {
  let read: { logs: SchedulerLogs; refused: ServiceError } | { logs: SchedulerLogs; refused: null; recent: RecentRow };
  try {
    read = await deps.observer.read(
      'detail as-of read',
      async () => {
        const logs = await readLogs(deps.db, name, { fromMs: atMs, toMs: atMs, ends: [atMs], bucketMs: 1 });
        const refused = asOfRefusal(logs, atMs, deps.retention);
        return refused !== null ? { logs, refused } : { logs, refused, recent: await readRecent(deps.db, name, atMs) };
      },
      (r) => r.logs.nowMs,
    );
  } catch (error) {
    return storeUnreadable(error);
  }
  if (read.refused !== null) return { ok: false, error: read.refused };
  const { logs, recent } = read;
  const byId = new Map<number, LeaseEventLog>();
  for (const e of [...(recent.events ?? []), ...logs.events]) byId.set(e.id, e);
  const events = [...byId.values()].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
  const tenures = rebuildTenures(events, currentLease(logs.lease), logs.nowMs);
  const { facts, estimated } = factsAt(logs, tenures, new ReportStates(logs.carry), atMs, 0);
  return okResult({
    observedAt: iso(logs.nowMs),
    observation: { ok: true, lastObservedAt: iso(logs.nowMs) },
    pollIntervalMs: deps.pollIntervalMs,
    asOf: iso(atMs),
    status: project(facts, iso(atMs), thresholdsFor(logs.registration)),
    transitions: transitions(tenures, atMs),
    rejections: rejections(recent),
    estimated,
    alerts: alertsAt(logs.alerts, atMs),
    alertModes: [],
  });
}

/**
 * One scheduler: its status with recent transitions and stale-write
 * rejections — live, or rebuilt as of an instant from the logs.
 *
 * Guarantees: two statements per call (facts or logs, then recent events and
 * rejections), both under the observer's deadline; the name is only ever a
 * bound parameter (checked by the HTTP layer before it gets here); an
 * unknown name → `not_found`; an instant after the database's now →
 * `invalid` (`at_in_future`), older than the retention horizon (./horizon.ts,
 * the database's now) → `outside_retention` naming the oldest instant kept;
 * the store unreadable → `unreadable`. As-of statuses list their estimated
 * fields (see ./facts-at.ts). Every rule comes from lib/status `project`.
 * Alerts: live, the scheduler's stored alert state with the modes in force;
 * as of the instant, which were pending or firing then (../alerts/view.ts) —
 * both within the same two statements.
 */
import type { SchedulerAlert, SchedulerAlertMode, SchedulerDetailResponse, StaleWriteRejection } from '../../api/types';
import { modeTable, resolveMode, SCHEDULER_ALERT_NAMES } from '../../alerts';
import { toStoredModes, type ModeRow } from '../../alerts/store/modes';
import { toStoredAlerts, type StateRow } from '../../alerts/store/state';
import { maintenanceAt, readLiveWindows, readTeamOwners, routingOf, type TeamOwner } from '../../alerts/store/maintenance';
import type { SchedulerLabels as Labels } from '../../status/types';
import { alertsAt, liveAlert } from '../alerts/view';
import { answeredTooFarBehind, conditionsOf, judgeDurability, project } from '../../status';
import { factsAt, ReportStates } from './facts-at';
import { unreadableResult } from '../store/deadline';
import { readOneFacts, thresholdsFor, type Queryable } from '../live/facts';
import { readReplicationFacts } from '../live/durability';
import { readLogs, type SchedulerLogs } from './logs';
import type { StoreObserver } from '../store/observer';
import type { RetentionPolicy } from '../../retention';
import { outsideRetention } from './horizon';
import { failed, okResult, type ReadError, type ReadResult, UNKNOWN_SCHEDULER } from '../domain/result';
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
  /** A standby further behind vouches for nothing (lib/status/durability.ts). */
  maxStandbyLagMs: number;
}

/** A live detail answered by a standby too far behind is not used: unreadable, as the list answers unknown. */
const STANDBY_BEHIND: ReadError = { kind: 'unreadable', message: 'the status store answered from a standby too far behind' };

const TRANSITIONS_MAX = 20;
const REJECTIONS_MAX = 50;
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
    text: RECENT_SQL,
    values: [name, untilMs === null ? 'infinity' : iso(untilMs), EVENTS_READ, REJECTIONS_MAX],
  });
  return rows[0] as RecentRow;
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

/** Its team (the `team` label) and what an operator gave for that team, or null without a team. */
function ownerOf(labels: Labels, owners: ReadonlyMap<string, TeamOwner>): SchedulerDetailResponse['owner'] {
  const routing = routingOf(labels, owners);
  return routing === null ? null : { team: routing.team, contact: routing.contact, runbookUrl: routing.runbook };
}

/** The status of `name` now, or as of `atMs` (epoch ms) rebuilt from the logs. */
export async function readDetail(deps: ReadDeps, name: string, atMs: number | null): Promise<ReadResult<SchedulerDetailResponse>> {
  if (atMs !== null) return readDetailAsOf(deps, name, atMs);
  try {
    const read = await deps.observer.read(
      'detail read',
      async () => {
        const facts = await readOneFacts(deps.db, name);
        const recent = facts.schedulers.length === 0 ? null : await readRecent(deps.db, name, null);
        const windows = recent === null ? [] : await readLiveWindows(deps.db);
        const owners = recent === null ? new Map() : await readTeamOwners(deps.db);
        return { facts, recent, windows, owners, replication: await readReplicationFacts(deps.db) };
      },
      (r) => Date.parse(r.facts.now),
    );
    const durability = judgeDurability(read.replication, read.facts.now, deps.maxStandbyLagMs);
    if (answeredTooFarBehind(durability)) return failed(STANDBY_BEHIND);
    const one = read.facts.schedulers[0];
    if (one === undefined || read.recent === null) return failed(UNKNOWN_SCHEDULER);
    const nowMs = Date.parse(read.facts.now);
    const current = currentLease(one.facts.lease);
    const status = project(one.facts, read.facts.now, one.thresholds);
    return okResult({
      observedAt: read.facts.now,
      observation: { ok: true, lastObservedAt: read.facts.now },
      pollIntervalMs: deps.pollIntervalMs,
      asOf: null,
      status,
      conditions: conditionsOf(status, read.facts.now),
      transitions: transitions(rebuildTenures(read.recent.events ?? [], current, nowMs), nowMs),
      rejections: rejections(read.recent),
      estimated: [],
      alerts: currentAlerts(read.recent, deps.alertmanagerUrl),
      alertModes: modesHere(read.recent, name),
      maintenance: maintenanceAt(read.windows, nowMs).of(name, status.labels),
      owner: ownerOf(status.labels, read.owners),
      durability,
    });
  } catch (error) {
    return unreadableResult(error);
  }
}

/** Why the logs cannot answer about `atMs`: an unknown name, the future, past the horizon; null: they can. */
function asOfRefusal(logs: SchedulerLogs, atMs: number, retention: RetentionPolicy): ReadError | null {
  if (!logs.known) return UNKNOWN_SCHEDULER;
  if (atMs > logs.nowMs) return { kind: 'invalid', code: 'at_in_future', message: `at: after the database's current time ${iso(logs.nowMs)}` };
  return outsideRetention('at', atMs, retention, logs.nowMs);
}

async function readDetailAsOf(deps: ReadDeps, name: string, atMs: number): Promise<ReadResult<SchedulerDetailResponse>> {
  let read: { logs: SchedulerLogs; refused: ReadError } | { logs: SchedulerLogs; refused: null; recent: RecentRow };
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
    return unreadableResult(error);
  }
  if (read.refused !== null) return failed(read.refused);
  const { logs, recent } = read;
  const byId = new Map<number, LeaseEventLog>();
  for (const e of [...(recent.events ?? []), ...logs.events]) byId.set(e.id, e);
  const events = [...byId.values()].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
  const tenures = rebuildTenures(events, currentLease(logs.lease), logs.nowMs);
  const { facts, estimated } = factsAt(logs, tenures, new ReportStates(logs.carry), atMs, 0);
  const status = project(facts, iso(atMs), thresholdsFor(logs.registration));
  return okResult({
    observedAt: iso(logs.nowMs),
    observation: { ok: true, lastObservedAt: iso(logs.nowMs) },
    pollIntervalMs: deps.pollIntervalMs,
    asOf: iso(atMs),
    status,
    conditions: conditionsOf(status, iso(atMs)),
    transitions: transitions(tenures, atMs),
    rejections: rejections(recent),
    estimated,
    alerts: alertsAt(logs.alerts, atMs),
    alertModes: [],
    maintenance: null,
    owner: null,
    durability: null,
  });
}

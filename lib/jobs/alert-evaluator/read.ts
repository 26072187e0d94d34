/**
 * Step `evaluate`, read (read-only): everything one round judges, once per
 * occurrence —
 * - every scheduler's status through the status service's own read and
 *   projection (lib/server `StatusService.live`, fresh): the rules read
 *   statuses, never rows; the newest stale-write rejection per lease comes
 *   from the same statement (a store fact the StaleWritesRejected rule reads);
 * - the service evidence: whether that read succeeded, and the database time
 *   of the last one that did (an unreadable store degrades every status to
 *   unknown, as the dashboard shows it);
 * - the modes in force and the stored alert state (the previous records);
 * - the maintenance windows open at the status read's time (whose alerts
 *   not to deliver) and the team owners (what the alerts say of routing);
 * - the health rollup's newest row per scheduler (./health-rollup.ts);
 * - what this process's delivery knows: acknowledgements not yet stored, and
 *   each Alertmanager's status.
 *
 * Guarantees: `now` is the database time of the status read (or, when the
 * store could not be read, the service's estimate on the database's time
 * line); a read of modes or state that fails throws (the runtime retries the
 * round — nothing is judged on half the facts).
 * Not guaranteed: one snapshot across the statements (the status read and
 * the alert tables are read in turn; only this evaluator writes the latter).
 */
import { schedulerEvidence, type ModeTable, type Routing, type SchedulerEvidence, type Suppression } from '../../alerts';
import { maintenanceAt, readLiveWindows, readTeamOwners, routingOf } from '../../alerts/store/maintenance';
import { readModeTable } from '../../alerts/store/modes';
import { readStoredAlerts } from '../../alerts/store/state';
import type { ReadOnlyPool } from '../../scheduler';
import { StatusService } from '../../server/service';
import type { Health } from '../../status';
import type { EvaluatorDelivery } from './delivery';
import { RECORDED_HEALTH_SQL } from './health-rollup';
import type { RoundData } from './plan';

export interface ReadOptions {
  /** Deadline of the status read; past it the store counts as unreadable. */
  readTimeoutMs: number;
  log: (line: string) => void;
}

/** One status service per read pool (its observer remembers the last good read across rounds). */
export class RoundReader {
  private service: { db: ReadOnlyPool; service: StatusService } | null = null;

  constructor(
    private readonly delivery: EvaluatorDelivery,
    private readonly options: ReadOptions,
  ) {}

  private statusOn(db: ReadOnlyPool): StatusService {
    if (this.service?.db !== db) {
      this.service = {
        db,
        service: new StatusService({ db, readTimeoutMs: this.options.readTimeoutMs, pollIntervalMs: 5_000, log: (line) => this.options.log(line) }),
      };
    }
    return this.service.service;
  }

  async read(db: ReadOnlyPool): Promise<RoundData> {
    const live = await this.statusOn(db).live({ fresh: true });
    const rejections = new Map(live.reads.map((r) => [r.facts.name, r.lastRejectionAt]));
    const schedulers: SchedulerEvidence[] = live.statuses.map((status) => schedulerEvidence(status, rejections.get(status.name) ?? null));
    const modes: ModeTable = await readModeTable(db);
    // Windows and owners are judged at the status read's database time: a window that closed counts no more.
    const maintenance = maintenanceAt(await readLiveWindows(db), Date.parse(live.now));
    const owners = await readTeamOwners(db);
    const suppressed = new Map<string, Suppression>();
    const routing = new Map<string, Routing>();
    for (const status of live.statuses) {
      const window = maintenance.of(status.name, status.labels);
      if (window !== null) suppressed.set(status.name, window);
      const routed = routingOf(status.labels, owners);
      if (routed !== null) routing.set(status.name, routed);
    }
    const stored = await readStoredAlerts(db);
    const recorded = await db.query<{ name: string; health: Health }>({
      text: RECORDED_HEALTH_SQL,
      values: [schedulers.map((s) => s.scheduler)],
    });
    return {
      now: live.now,
      service: { storeReadable: live.ok, lastObservedAt: live.lastObservedAt },
      schedulers,
      modes,
      suppressed,
      routing,
      stored,
      recordedHealth: new Map(recorded.rows.map((r) => [r.name, r.health])),
      acks: this.delivery.pendingAcks(),
      delivery: this.delivery.targets(),
    };
  }
}

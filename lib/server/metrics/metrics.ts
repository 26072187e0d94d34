/**
 * GET /api/metrics: Prometheus text from the live read (shared with the list).
 * The service's own gauges come from a prom-client Registry of its own,
 * created per scrape (no default metrics); the per-scheduler families are
 * written by ./exposition.ts for speed at 10,000 schedulers.
 *
 * Guarantees: labels are ONLY `scheduler` (the lease name) and a state
 * (`health`) — never holder tokens, hosts or IDs (docs/design.md, invariant 10);
 * a scheduler's team is on one info series (`leaseboard_scheduler_info
 * {scheduler,team} 1`, Prometheus' practice: join on it, no label set added
 * to every series), an open maintenance window on `leaseboard_scheduler_
 * maintenance{scheduler,window} 1` (absent outside one);
 * `leaseboard_scheduler_health` has all six healths as 0/1, so `== 1` alerts
 * work and a missing series means a missing scheduler; numeric gauges (epoch,
 * ages, at-risk) come only from a successful read — when the store is
 * unreadable they are absent, not stale, health is `unknown` and
 * `leaseboard_observation_ok` is 0.
 * `leaseboard_scheduler_last_stale_write_rejection_age_seconds` (the
 * Prometheus StaleWritesRejected rule reads it): seconds since the newest
 * rejection logged for the lease; absent when there is none or the store is
 * unreadable. Alert delivery, per Alertmanager (label `alertmanager`, an
 * opaque `alertmanager-N` — never a URL): the evaluator's view at its last
 * round (queue depth, consecutive failures, ages, counters since its process
 * started — a counter resets when another instance takes over delivery).
 * Durability (`leaseboard_store_*`): the mode as a state set (label `mode`),
 * the standby counts, the replay lag in seconds and bytes, whether a standby
 * answered, and the failover generation — each absent when not known. The
 * lag is the worst standby's, with no per-standby series: a standby's only
 * names are its address and application_name, which are host names under
 * Patroni and CloudNativePG, and an ordinal would not name the same standby
 * from one scrape to the next.
 * Non-guarantees: the authority and work axes are not exported as separate
 * state gauges (cardinality: 10 more series per scheduler); health, ages and
 * `leaseboard_scheduler_observation_gap` carry what alerts need.
 */
import { Gauge, Registry } from 'prom-client';
import { type Durability, type DurabilityMode, HEALTH_SEVERITY } from '../../status';
import { escapeLabelValue, GaugeFamily } from './exposition';
import type { ObservationState } from '../store/observer';
import type { LiveRead } from '../live/list';
import type { StoredDeliveryTarget } from '../../alerts/store/delivery';
import { type MaintenanceWindow, maintenanceAt, TEAM_LABEL } from '../../alerts/store/maintenance';

async function serviceGauges(live: LiveRead, observation: ObservationState): Promise<{ text: string; contentType: string }> {
  const registry = new Registry();
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers: [registry] });
  gauge('leaseboard_observation_ok', 'Whether the status service could read the store for this scrape (1) or not (0).').set(live.ok ? 1 : 0);
  if (live.lastObservedAt !== null) {
    gauge('leaseboard_observation_last_success_timestamp_seconds', 'Database time of the last successful read of the store.').set(
      Date.parse(live.lastObservedAt) / 1000,
    );
  }
  if (observation.lastLatencyMs !== null) {
    gauge('leaseboard_store_read_latency_seconds', 'Round trip of the last successful store read.').set(observation.lastLatencyMs / 1000);
  }
  gauge('leaseboard_schedulers', 'Schedulers known to the status service.').set(live.view.size);
  durabilityGauges(live.durability, registry);
  return { text: await registry.metrics(), contentType: registry.contentType };
}

const DURABILITY_MODES: readonly DurabilityMode[] = ['single', 'async', 'sync', 'unknown'];

/** What protects the authority (lib/status/durability.ts): the mode as a state set, counts, lag, generation — no node, no host, no application_name. */
function durabilityGauges(d: Durability, registry: Registry): void {
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const mode = gauge(
    'leaseboard_store_durability',
    'What protects the lease authority: 1 for the current mode (single, async, sync, unknown), 0 for the others.',
    ['mode'],
  );
  for (const m of DURABILITY_MODES) mode.set({ mode: m }, d.mode === m ? 1 : 0);
  if (d.synchronousStandbys !== null) gauge('leaseboard_store_synchronous_standbys', 'Streaming standbys every commit waits for.').set(d.synchronousStandbys);
  if (d.asynchronousStandbys !== null)
    gauge('leaseboard_store_asynchronous_standbys', 'Streaming standbys commits do not wait for.').set(d.asynchronousStandbys);
  if (d.lag.ms !== null) {
    gauge(
      'leaseboard_store_standby_lag_seconds',
      "Replay lag: the slowest standby's as the primary measures it, or the answering standby's own (0 while it streams and has replayed all it received).",
    ).set(d.lag.ms / 1000);
  }
  if (d.lag.bytes !== null)
    gauge('leaseboard_store_standby_lag_bytes', "The largest WAL distance from the primary to a standby's replay position.").set(d.lag.bytes);
  if (d.answeredBy !== null) {
    gauge('leaseboard_store_answered_by_standby', 'Whether the node that answered the status read is a standby (1) or the primary (0).').set(
      d.answeredBy.role === 'standby' ? 1 : 0,
    );
  }
  if (d.generation !== null) {
    gauge('leaseboard_store_failover_generation', "The answering primary's failover generation (the epoch's high part); it rises at every promotion.").set(
      d.generation,
    );
  }
}

function deliveryFamilies(targets: readonly StoredDeliveryTarget[]): GaugeFamily[] {
  const queue = new GaugeFamily('leaseboard_alert_delivery_queue_depth', 'Alerts waiting to be sent to this Alertmanager (the evaluator’s outbox).');
  const failures = new GaugeFamily('leaseboard_alert_delivery_consecutive_failures', 'Failed attempts in a row (0: the last attempt succeeded).');
  const success = new GaugeFamily(
    'leaseboard_alert_delivery_last_success_age_seconds',
    'Time since this Alertmanager last accepted alerts, at the evaluator’s last round.',
  );
  const observed = new GaugeFamily(
    'leaseboard_alert_delivery_observed_timestamp_seconds',
    'Database time of the evaluator’s last report of its delivery status (stale: the evaluator stopped).',
  );
  const sent = new GaugeFamily('leaseboard_alert_delivery_sent_alerts_total', 'Alerts this Alertmanager accepted.', 'counter');
  const failed = new GaugeFamily('leaseboard_alert_delivery_failed_attempts_total', 'Requests to this Alertmanager that failed.', 'counter');
  const dropped = new GaugeFamily('leaseboard_alert_delivery_dropped_alerts_total', 'Alerts dropped unsent: refused (4xx) or the outbox was full.', 'counter');
  for (const t of targets) {
    const label = `alertmanager="${escapeLabelValue(t.id)}"`;
    queue.add(label, t.queueDepth);
    failures.add(label, t.consecutiveFailures);
    if (t.lastSuccessAgeMs !== null) success.add(label, t.lastSuccessAgeMs / 1000);
    observed.add(label, Date.parse(t.observedAt) / 1000);
    sent.add(label, t.sentAlerts);
    failed.add(label, t.failedAttempts);
    dropped.add(label, t.rejectedAlerts + t.droppedAlerts);
  }
  return [queue, failures, success, observed, sent, failed, dropped];
}

export async function renderMetrics(
  live: LiveRead,
  observation: ObservationState,
  delivery: readonly StoredDeliveryTarget[] = [],
  windows: readonly MaintenanceWindow[] = [],
): Promise<{ contentType: string; body: string }> {
  const own = await serviceGauges(live, observation);
  const health = new GaugeFamily('leaseboard_scheduler_health', 'Health of each scheduler: 1 for its current health, 0 for the others.');
  const gap = new GaugeFamily('leaseboard_scheduler_observation_gap', 'Whether observation of this scheduler is broken (1) or not (0).');
  const epoch = new GaugeFamily('leaseboard_scheduler_epoch', 'Fencing epoch of the lease (last known holder).');
  const atRisk = new GaugeFamily(
    'leaseboard_scheduler_renewal_at_risk',
    'Held lease whose renewal age exceeds the at-risk fraction of its ttl (1) or not (0).',
  );
  const renewalAge = new GaugeFamily('leaseboard_scheduler_renewal_age_seconds', 'Time since the lease was last renewed.');
  const advanceAge = new GaugeFamily('leaseboard_scheduler_last_advance_age_seconds', "Time since the current epoch's last advance.");
  const reportAge = new GaugeFamily('leaseboard_scheduler_last_report_age_seconds', "Time since the current epoch's last progress report.");
  const rejectionAge = new GaugeFamily(
    'leaseboard_scheduler_last_stale_write_rejection_age_seconds',
    'Time since the fence last rejected a stale write of this lease (absent: none logged).',
  );

  const info = new GaugeFamily(
    'leaseboard_scheduler_info',
    'Always 1: who owns each scheduler that has a `team` label. Join on `scheduler` (e.g. `* on (scheduler) group_left (team) leaseboard_scheduler_info`) instead of a team label on every series.',
  );
  const maintenance = new GaugeFamily(
    'leaseboard_scheduler_maintenance',
    'Always 1: the scheduler is in an open maintenance window (`window`: its number); absent otherwise. Its health series are unchanged by it.',
  );

  const nowMs = Date.parse(live.now);
  const inWindow = maintenanceAt(windows, nowMs);
  // Metric rows, not statuses: the view gives these numbers without projecting every scheduler's reasons.
  for (const s of live.view.metricRows()) {
    const scheduler = `scheduler="${escapeLabelValue(s.name)}"`;
    for (const h of HEALTH_SEVERITY) health.add(`${scheduler},health="${h}"`, s.health === h ? 1 : 0);
    gap.add(scheduler, s.gap ? 1 : 0);
    const team = s.labels[TEAM_LABEL];
    if (team !== undefined && team !== '') info.add(`${scheduler},team="${escapeLabelValue(team)}"`, 1);
    const window = inWindow.of(s.name, s.labels);
    if (window !== null) maintenance.add(`${scheduler},window="${window.window}"`, 1);
    if (!live.ok) continue;
    atRisk.add(scheduler, s.atRisk ? 1 : 0);
    if (s.epoch !== null) epoch.add(scheduler, s.epoch);
    if (s.renewalAgeMs !== null) renewalAge.add(scheduler, s.renewalAgeMs / 1000);
    if (s.lastAdvanceAgeMs !== null) advanceAge.add(scheduler, s.lastAdvanceAgeMs / 1000);
    if (s.lastReportAgeMs !== null) reportAge.add(scheduler, s.lastReportAgeMs / 1000);
    if (s.lastRejectionAt !== null) rejectionAge.add(scheduler, Math.max(0, nowMs - Date.parse(s.lastRejectionAt)) / 1000);
  }
  const families = [health, gap, info, maintenance, epoch, atRisk, renewalAge, advanceAge, reportAge, rejectionAge, ...deliveryFamilies(delivery)]
    .map((f) => f.render())
    .join('');
  return { contentType: own.contentType, body: `${own.text.endsWith('\n') ? own.text : `${own.text}\n`}${families}` };
}

/**
 * Step `evaluate`, plan (pure): one evaluator round (lib/alerts
 * `evaluateRound`) and what to store of it — the records that changed, the
 * ones to forget, the transitions, the delivery status, which sends
 * Alertmanager acknowledged — plus what to hand to delivery once the write
 * committed.
 *
 * Guarantees: pure (`now` is the database time of the status read); a key
 * is either upserted or deleted or acknowledged, never two of them (one
 * statement may not touch a row twice); an acknowledgement counts only for
 * the send it names (a newer send stays undelivered until it is confirmed).
 * Non-guarantees: nothing here knows whether the write will be accepted —
 * the runtime hands the plan to delivery only after it committed.
 */
import {
  evaluateRound,
  parseAlertKey,
  reopenSends,
  type AlertConfig,
  type AlertRecord,
  type AlertTransition,
  type ModeTable,
  type OutgoingAlert,
  type Routing,
  type SchedulerEvidence,
  type Suppression,
  type ServiceEvidence,
} from '../../alerts';
import type { DeliveryCounters } from '../../alerts/store/delivery';
import type { StoredAlert } from '../../alerts/store/state';
import type { Health } from '../../status';
import { healthChanges, type HealthChange } from './health-rollup';

/** What the read step gathered (see ./read.ts). */
export interface RoundData {
  now: string;
  service: ServiceEvidence;
  schedulers: SchedulerEvidence[];
  modes: ModeTable;
  /** Schedulers in an open maintenance window (absent: none): their alerts are not delivered. */
  suppressed?: ReadonlyMap<string, Suppression>;
  /** Schedulers with a team (absent: none): their alerts' team label and owner annotations. */
  routing?: ReadonlyMap<string, Routing>;
  stored: StoredAlert[];
  /** The health rollup's newest row per scheduler (absent: none yet). */
  recordedHealth: ReadonlyMap<string, Health>;
  /** Sends Alertmanager accepted since they were last stored: key → the send's `sent.at`. */
  acks: ReadonlyMap<string, string>;
  /** Per Alertmanager, as this process's delivery sees it, with ages measured now. */
  delivery: DeliveryRow[];
}

/** One Alertmanager's counters, as this process's delivery sees them, under its id (`alertmanager-N`). */
export interface DeliveryRow extends DeliveryCounters {
  target: string;
}

/** An alert_state row as the evaluator writes it (lease, epoch and updated_at are the fence's). */
interface StateRow {
  rule: string;
  scheduler: string | null;
  state: AlertRecord['state']['kind'];
  activeAt: string | null;
  firedAt: string | null;
  keepFiringSince: string | null;
  resolvedAt: string | null;
  summary: string | null;
  sentAt: string | null;
  sentAs: 'firing' | 'resolved' | null;
  deliveredSentAt: string | null;
}

export interface RoundPlan {
  now: string;
  upserts: StateRow[];
  deletes: { rule: string; scheduler: string | null }[];
  /** Acknowledged sends of records this round left unchanged. */
  delivered: { rule: string; scheduler: string | null; sentAt: string }[];
  /** Every acknowledgement this plan stores (forgotten once committed). */
  acked: [key: string, sentAt: string][];
  transitions: AlertTransition[];
  /** Schedulers whose health the rollup must record as changed at this round. */
  healthChanges: HealthChange[];
  delivery: DeliveryRow[];
  outgoing: OutgoingAlert[];
  /** Everything Alertmanager may hold of ours, for a new tenure's first delivery (computed on demand). */
  reopen: () => OutgoingAlert[];
}

/** A plan with nothing to store or send but what `over` gives (the statements still mark the round's minute observed). */
export function quietPlan(over: Partial<RoundPlan> = {}): RoundPlan {
  return {
    now: '',
    upserts: [],
    deletes: [],
    delivered: [],
    acked: [],
    transitions: [],
    healthChanges: [],
    delivery: [],
    outgoing: [],
    reopen: () => [],
    ...over,
  };
}

function stateRow(rule: string, scheduler: string | null, record: AlertRecord, deliveredSentAt: string | null): StateRow {
  const s = record.state;
  return {
    rule,
    scheduler,
    state: s.kind,
    activeAt: s.kind === 'inactive' ? null : s.activeAt,
    firedAt: s.kind === 'firing' || s.kind === 'resolved' ? s.firedAt : null,
    keepFiringSince: s.kind === 'firing' ? s.keepFiringSince : null,
    resolvedAt: s.kind === 'resolved' ? s.resolvedAt : null,
    summary: record.summary,
    sentAt: record.sent?.at ?? null,
    sentAs: record.sent?.as ?? null,
    deliveredSentAt,
  };
}

export function planRound(data: RoundData, config: AlertConfig): RoundPlan {
  const previous = new Map<string, AlertRecord>();
  const stored = new Map<string, StoredAlert>();
  for (const a of data.stored) {
    previous.set(a.key, a.record);
    stored.set(a.key, a);
  }
  const round = evaluateRound({
    now: data.now,
    service: data.service,
    schedulers: data.schedulers,
    modes: data.modes,
    previous,
    config,
    suppressed: data.suppressed,
    routing: data.routing,
  });

  const ackFor = (key: string, record: AlertRecord) => {
    const sentAt = data.acks.get(key);
    return sentAt !== undefined && record.sent?.at === sentAt ? sentAt : null;
  };
  const upserts: StateRow[] = [];
  const deletes: RoundPlan['deletes'] = [];
  const delivered: RoundPlan['delivered'] = [];
  for (const [key, record] of round.records) {
    const before = stored.get(key);
    if (before?.record === record) continue; // unchanged: at most an acknowledgement (below)
    const parts = parseAlertKey(key);
    if (parts === null) continue; // the round only keeps keys of known rules
    const kept = before !== undefined && record.sent !== null && record.sent.at === before.deliveredSentAt ? before.deliveredSentAt : null;
    upserts.push(stateRow(parts.rule, parts.scheduler, record, ackFor(key, record) ?? kept));
  }
  for (const [key, before] of stored) {
    const record = round.records.get(key);
    if (record === undefined) deletes.push({ rule: before.rule, scheduler: before.scheduler });
    else if (record === before.record) {
      const sentAt = ackFor(key, record);
      if (sentAt !== null && sentAt !== before.deliveredSentAt) delivered.push({ rule: before.rule, scheduler: before.scheduler, sentAt });
    }
  }
  const clock = { now: data.now, resendEveryMs: config.resendEveryMs, evaluateEveryMs: config.evaluateEveryMs };
  return {
    now: data.now,
    upserts,
    deletes,
    delivered,
    acked: [...data.acks],
    transitions: round.transitions,
    healthChanges: healthChanges(data.schedulers, data.recordedHealth),
    delivery: data.delivery,
    outgoing: round.outgoing,
    reopen: () => reopenSends(round.records, clock, config.externalUrl, data.routing),
  };
}

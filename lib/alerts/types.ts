/**
 * Types of the alert core: rule names, modes, the evidence a rule reads, the
 * state machine's states, and what goes to Alertmanager.
 *
 * Guarantees: every state is a string-literal union (switch on it
 * exhaustively); every time is an ISO-8601 UTC string from the database clock
 * (the evaluator's `now` is the time of the status read it judges).
 * Non-guarantees: these types do not check consistency between a state and
 * its clocks; `evaluate` only ever produces consistent ones.
 */
import type { Health, IsoTime, Reason } from '../status/types';

export type { IsoTime };

/** The rules' names: one list, in the contract (lib/api/alert-names.ts). */
export type { AlertName, SchedulerAlertName, ServiceAlertName } from '../api/alert-names';

export type Severity = 'critical' | 'warning' | 'none';

/**
 * The rollout switch (operator intent):
 * - `off`: not evaluated; the state is forgotten (raw status still shown and exported);
 * - `shadow`: evaluated, states recorded and shown, never delivered (the default);
 * - `on`: evaluated and delivered to Alertmanager.
 */
export type AlertMode = 'off' | 'shadow' | 'on';

/** A rule's condition on one evaluation: unknown evidence neither fires nor resolves. */
export type Condition = 'true' | 'false' | 'unknown';

/** What one scheduler's rules read: the projection's answer, never raw rows. */
export interface SchedulerEvidence {
  scheduler: string;
  health: Health;
  atRisk: boolean;
  /** False when the status service could not read the store (authority `unknown`). */
  storeReadable: boolean;
  /** Newest stale-write rejection of this scheduler's lease known to the reader, or null. */
  lastRejectionAt: IsoTime | null;
  /** The status's reasons, for the alert's summary. */
  reasons: readonly Reason[];
}

/**
 * Where a scheduler's alerts go: its team (the `team` label of the scheduler, sent as the alert's `team`
 * label so Alertmanager routes by it) and what the team's owner gave (annotations `contact`, `runbook`).
 */
export interface Routing {
  team: string;
  contact: string | null;
  runbook: string | null;
}

/** Why a scheduler's alerts are not delivered now: the open maintenance window that covers it. */
export interface Suppression {
  window: number;
  reason: string;
  by: string;
  /** When this occurrence of the window closes (ISO, database time). */
  until: IsoTime;
}

/** What the service-level rules read: the evaluator's own read of the store. */
export interface ServiceEvidence {
  storeReadable: boolean;
  /** Database time of the last successful read (null: never). */
  lastObservedAt: IsoTime | null;
}

/**
 * Prometheus' alert states, plus `resolved`: a firing alert whose condition
 * ended (Prometheus reports it as inactive, and keeps re-sending it with
 * `endsAt` for a while). `activeAt` is when the condition became true,
 * `firedAt` when `for` was met, `keepFiringSince` the first false evaluation
 * while `keepFiringFor` holds the alert firing.
 */
export type AlertState =
  | { kind: 'inactive' }
  | { kind: 'pending'; activeAt: IsoTime }
  | { kind: 'firing'; activeAt: IsoTime; firedAt: IsoTime; keepFiringSince: IsoTime | null }
  | { kind: 'resolved'; activeAt: IsoTime; firedAt: IsoTime; resolvedAt: IsoTime };

export type AlertStateKind = AlertState['kind'];

/** The phase Prometheus (and the golden cases) would name: `resolved` reads `inactive`. */
export type AlertPhase = 'inactive' | 'pending' | 'firing';

/** The last thing sent to Alertmanager for one alert (delivery bookkeeping). */
export interface SentMark {
  at: IsoTime;
  as: 'firing' | 'resolved';
}

/** One alert's stored state: the machine's state, its last summary, what was sent. */
export interface AlertRecord {
  state: AlertState;
  /** Summary from the last evaluation whose condition was true (null: never true). */
  summary: string | null;
  /** Null: Alertmanager has nothing of this alert that we know of. */
  sent: SentMark | null;
}

/** Alertmanager API v2 `PostableAlert`. */
export interface AlertmanagerAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: IsoTime;
  endsAt: IsoTime;
  generatorURL: string;
}

/** An alert to deliver, with the key that makes "latest state per alert wins" possible. */
export interface OutgoingAlert {
  key: string;
  alert: AlertmanagerAlert;
  /** The `sent.at` of the record this send belongs to: an acknowledgement names the send it confirms. */
  sentAt: IsoTime;
}

/**
 * Alert state as stored (alert_state): one row per alert that is not
 * inactive or may still be open at Alertmanager, written only by the
 * evaluator job (fenced). Reads for the evaluator (its previous records) and
 * for the status service (what fires, what was delivered).
 *
 * Guarantees: one statement per read; rows of rules no longer in the
 * catalogue, or whose stored state is inconsistent, are skipped (never
 * guessed); times are the database times the evaluator judged, exact to the
 * millisecond.
 */
import { isAlertName, isSchedulerAlert } from '../catalogue';
import { alertKey } from '../payload';
import type { AlertName, AlertRecord, AlertState, AlertStateKind, IsoTime, SentMark } from '../types';
import { isoOrNull, msCol, type Queryable } from './db';

/** One stored alert: its record (what the evaluator reads back) and what the dashboard shows beside it. */
export interface StoredAlert {
  key: string;
  rule: AlertName;
  scheduler: string | null;
  record: AlertRecord;
  /** The `sent.at` of the last send an Alertmanager accepted; equal to `record.sent.at`: delivered. */
  deliveredSentAt: IsoTime | null;
  /** Database time of the evaluator's last write of this row. */
  updatedAt: IsoTime;
}

/** An alert_state row as `STATE_COLUMNS` select it. */
export interface StateRow {
  rule: string;
  scheduler: string | null;
  state: AlertStateKind;
  active_ms: number | null;
  fired_ms: number | null;
  keep_ms: number | null;
  resolved_ms: number | null;
  summary: string | null;
  sent_ms: number | null;
  sent_as: SentMark['as'] | null;
  delivered_ms: number | null;
  updated_ms: number;
}

/** The columns every reader of alert_state selects (mapped by `toStoredAlert`). */
export const STATE_COLUMNS = `rule, scheduler, state, ${msCol('active_at', 'active_ms')}, ${msCol('fired_at', 'fired_ms')},
  ${msCol('keep_firing_since', 'keep_ms')}, ${msCol('resolved_at', 'resolved_ms')}, summary, ${msCol('sent_at', 'sent_ms')}, sent_as,
  ${msCol('delivered_sent_at', 'delivered_ms')}, ${msCol('updated_at', 'updated_ms')}`;

const STATE_SQL = `SELECT ${STATE_COLUMNS} FROM alert_state`;

function stateOf(row: StateRow): AlertState | null {
  const activeAt = isoOrNull(row.active_ms);
  const firedAt = isoOrNull(row.fired_ms);
  switch (row.state) {
    case 'inactive':
      return { kind: 'inactive' };
    case 'pending':
      return activeAt === null ? null : { kind: 'pending', activeAt };
    case 'firing':
      return activeAt === null || firedAt === null ? null : { kind: 'firing', activeAt, firedAt, keepFiringSince: isoOrNull(row.keep_ms) };
    case 'resolved': {
      const resolvedAt = isoOrNull(row.resolved_ms);
      return activeAt === null || firedAt === null || resolvedAt === null ? null : { kind: 'resolved', activeAt, firedAt, resolvedAt };
    }
    default:
      return null;
  }
}

function toStoredAlert(row: StateRow): StoredAlert | null {
  if (!isAlertName(row.rule) || isSchedulerAlert(row.rule) !== (row.scheduler !== null)) return null;
  const state = stateOf(row);
  if (state === null) return null;
  const sentAt = isoOrNull(row.sent_ms);
  const sent: SentMark | null = sentAt !== null && row.sent_as !== null ? { at: sentAt, as: row.sent_as } : null;
  return {
    key: alertKey(row.rule, row.scheduler),
    rule: row.rule,
    scheduler: row.scheduler,
    record: { state, summary: row.summary, sent },
    deliveredSentAt: isoOrNull(row.delivered_ms),
    updatedAt: isoOrNull(row.updated_ms)!,
  };
}

/** Rows → stored alerts, skipping rows of unknown rules or inconsistent state. */
export function toStoredAlerts(rows: readonly StateRow[]): StoredAlert[] {
  return rows.map(toStoredAlert).filter((a): a is StoredAlert => a !== null);
}

/** Every stored alert (or one scheduler's). */
export async function readStoredAlerts(db: Queryable, scheduler?: string): Promise<StoredAlert[]> {
  const { rows } =
    scheduler === undefined ? await db.query({ text: STATE_SQL }) : await db.query({ text: `${STATE_SQL} WHERE scheduler = $1`, values: [scheduler] });
  return toStoredAlerts(rows as StateRow[]);
}

/**
 * Alert modes as stored: the rule's own mode (scheduler NULL) and
 * per-scheduler overrides (alert_modes), with an audit row for every change
 * (alert_mode_audit, never pruned).
 *
 * Guarantees
 * - Only `changeAlertMode` writes them, and every change is appended to the
 *   audit in the same transaction, timed by the database clock, with what
 *   was set at that level before and the mode that was in force (the same
 *   resolution as the evaluator, ../modes.ts). Changes to one rule are
 *   serialised (an advisory lock), so from → to is exact.
 * - A change that would not change the setting is refused (`unchanged`, no
 *   audit noise); with `expectMode`, a change based on a mode that is no
 *   longer in force is refused (`conflict`).
 * - Service rules (StatusStoreUnreadable, Watchdog) have no per-scheduler
 *   override; an override names a scheduler the store knows (`mustExist`).
 * - Nothing automatic calls it: the evaluator, the pruner and the runtime
 *   only read modes (docs/design.md, invariant 9).
 */
import type pg from 'pg';
import { z } from 'zod';
import { type IdentifiedBy, OPERATOR_NAME_MAX_LENGTH as BY_MAX, REASON_MAX_LENGTH as REASON_MAX } from '../../limits';
import { isAlertName, isSchedulerAlert } from '../catalogue';
import { ALERT_MODES, modeTable, resolveMode, type ModeSetting, type ModeTable } from '../modes';
import type { AlertMode, AlertName } from '../types';
import { isoOrNull, msCol, type Queryable } from './db';

export const modeChangeSchema = z.object({
  rule: z.string().refine(isAlertName, { message: 'rule: not a Leaseboard alert rule' }),
  scheduler: z.string().min(1).max(200).nullable(),
  mode: z.enum(ALERT_MODES as [AlertMode, ...AlertMode[]], { error: 'mode: one of off, shadow, on' }),
  by: z.string().trim().min(1, 'by: who is changing the mode').max(BY_MAX, `by: at most ${BY_MAX} characters`),
  reason: z.string().trim().min(1, 'reason: say why').max(REASON_MAX, `reason: at most ${REASON_MAX} characters`),
});
export type ModeChange = Omit<z.infer<typeof modeChangeSchema>, 'rule'> & { rule: AlertName };

export interface StoredModeRow extends ModeSetting {
  rule: AlertName;
  scheduler: string | null;
}

export type ModeChangeResult =
  | { kind: 'changed'; from: { setting: AlertMode | null; effective: AlertMode }; setting: StoredModeRow }
  | { kind: 'unchanged'; current: StoredModeRow }
  | { kind: 'conflict'; effective: AlertMode }
  | { kind: 'unknown_scheduler' }
  | { kind: 'no_override'; rule: AlertName };

/** An alert_modes row as `MODE_COLUMNS` select it. */
export interface ModeRow {
  rule: string;
  scheduler: string | null;
  mode: AlertMode;
  by: string;
  reason: string;
  at_ms: number;
}

export const MODE_COLUMNS = `rule, scheduler, mode, by, reason, ${msCol('at', 'at_ms')}`;

function toStored(row: ModeRow): StoredModeRow | null {
  if (!isAlertName(row.rule)) return null; // a rule no longer in the catalogue
  return { rule: row.rule, scheduler: row.scheduler, mode: row.mode, by: row.by, reason: row.reason, at: isoOrNull(row.at_ms)! };
}

/** Rows → stored modes, skipping rules no longer in the catalogue. */
export function toStoredModes(rows: readonly ModeRow[]): StoredModeRow[] {
  return rows.map(toStored).filter((row): row is StoredModeRow => row !== null);
}

/** Every stored mode (rules and overrides) of rules in the catalogue. */
export async function readModeRows(db: Queryable): Promise<StoredModeRow[]> {
  const { rows } = await db.query({ text: `SELECT ${MODE_COLUMNS} FROM alert_modes` });
  return toStoredModes(rows as ModeRow[]);
}

export async function readModeTable(db: Queryable): Promise<ModeTable> {
  return modeTable(await readModeRows(db));
}

/**
 * Sets one rule's mode (scheduler null) or one scheduler's override.
 * `expectMode`: the mode in force the operator saw (absent: whatever it is).
 */
export async function changeAlertMode(
  pool: Pick<pg.Pool, 'connect'>,
  change: ModeChange,
  options: { expectMode?: AlertMode; mustExist?: boolean; identifiedBy?: IdentifiedBy } = {},
): Promise<ModeChangeResult> {
  const parsed = modeChangeSchema.parse(change);
  const rule = parsed.rule as AlertName;
  const { scheduler, mode, by, reason } = parsed;
  if (scheduler !== null && !isSchedulerAlert(rule)) return { kind: 'no_override', rule };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.alert-mode:' || $1, 0))", [rule]);
    if (scheduler !== null && options.mustExist) {
      const known = await client.query(
        `SELECT 1 FROM schedulers WHERE name = $1 UNION ALL SELECT 1 FROM leases WHERE name = $1
         UNION ALL SELECT 1 FROM scheduler_intents WHERE lease = $1 LIMIT 1`,
        [scheduler],
      );
      if (known.rowCount === 0) {
        await client.query('ROLLBACK');
        return { kind: 'unknown_scheduler' };
      }
    }
    const { rows } = await client.query<ModeRow>(`SELECT ${MODE_COLUMNS} FROM alert_modes WHERE rule = $1 AND (scheduler IS NULL OR scheduler = $2)`, [
      rule,
      scheduler,
    ]);
    const stored = rows.map(toStored).filter((row): row is StoredModeRow => row !== null);
    const effective = resolveMode(modeTable(stored), rule, scheduler).mode;
    const own = stored.find((row) => row.scheduler === scheduler) ?? null;
    if (options.expectMode !== undefined && options.expectMode !== effective) {
      await client.query('ROLLBACK');
      return { kind: 'conflict', effective };
    }
    if (own !== null && own.mode === mode) {
      await client.query('ROLLBACK');
      return { kind: 'unchanged', current: own };
    }
    const written = await client.query<{ at_ms: number }>(
      `WITH c AS (SELECT clock_timestamp() AS now),
         upsert AS (
           INSERT INTO alert_modes (rule, scheduler, mode, by, reason, at) SELECT $1, $2, $3, $4, $5, c.now FROM c
           ON CONFLICT (rule, scheduler) DO UPDATE SET mode = excluded.mode, by = excluded.by, reason = excluded.reason, at = excluded.at
         ),
         audit AS (
           INSERT INTO alert_mode_audit (rule, scheduler, from_mode, from_effective, to_mode, by, identified_by, reason, at)
           SELECT $1, $2, $6, $7, $3, $4, $8, $5, c.now FROM c
         )
       SELECT ${msCol('now', 'at_ms')} FROM c`,
      [rule, scheduler, mode, by, reason, own?.mode ?? null, effective, options.identifiedBy ?? null],
    );
    await client.query('COMMIT');
    return {
      kind: 'changed',
      from: { setting: own?.mode ?? null, effective },
      setting: { rule, scheduler, mode, by, reason, at: isoOrNull(written.rows[0]!.at_ms)! },
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

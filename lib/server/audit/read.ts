/**
 * The audit trail of operator actions, newest first: who, what, from → to,
 * why, when — scheduler intent (intent_audit) and alert modes
 * (alert_mode_audit), neither ever pruned. An intent's "from" is the previous
 * row of the same scheduler (every change is appended in the same
 * transaction that makes it, lib/lease/intent.ts); a mode change records its
 * own from (the setting at that level, or the mode it inherited).
 *
 * Guarantees: one statement, with the database time it was read at; at most
 * `AUDIT_LIMIT_MAX` entries. Filtered by scheduler: its intent changes and
 * its alert-mode overrides (a rule's own mode concerns every scheduler and
 * is listed unfiltered only).
 */
import type { AuditEntry } from '../../api/types';
import { isAlertName } from '../../alerts';
import type { Queryable } from '../live/facts';

export const AUDIT_LIMIT_DEFAULT = 100;
export const AUDIT_LIMIT_MAX = 500;

type AuditRow =
  | { kind: 'intent'; id: number; scheduler: string; disabled: boolean; was: boolean | null; by: string; reason: string; at: string }
  | {
      kind: 'mode';
      id: number;
      scheduler: string | null;
      rule: string;
      from_mode: string | null;
      from_effective: string;
      to_mode: string;
      by: string;
      reason: string;
      at: string;
    };

const state = (disabled: boolean | null) => (disabled ? 'disabled' : 'enabled');

function entry(row: AuditRow): AuditEntry | null {
  const at = new Date(row.at).toISOString();
  if (row.kind === 'intent') {
    return {
      id: `intent-${row.id}`,
      at,
      who: row.by,
      action: row.disabled ? 'scheduler.disable' : 'scheduler.enable',
      target: row.scheduler,
      scheduler: row.scheduler,
      rule: null,
      from: state(row.was),
      to: state(row.disabled),
      reason: row.reason,
    };
  }
  if (!isAlertName(row.rule)) return null;
  return {
    id: `mode-${row.id}`,
    at,
    who: row.by,
    action: 'alert.mode',
    target: row.scheduler ?? row.rule,
    scheduler: row.scheduler,
    rule: row.rule,
    from: row.from_mode ?? `${row.from_effective} (inherited)`,
    to: row.to_mode,
    reason: row.reason,
  };
}

export async function readAudit(db: Queryable, filter: { scheduler: string | null; limit: number }): Promise<{ nowMs: number; entries: AuditEntry[] }> {
  const { rows } = (await db.query({
    name: 'audit_read',
    text: `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms,
      coalesce((SELECT json_agg(x ORDER BY x.at DESC, x.kind DESC, x.id DESC) FROM (
        SELECT * FROM (
          (SELECT 'intent' AS kind, a.id, a.lease AS scheduler, NULL::text AS rule, a.disabled,
                  lag(a.disabled) OVER (PARTITION BY a.lease ORDER BY a.at, a.id) AS was,
                  NULL::text AS from_mode, NULL::text AS from_effective, NULL::text AS to_mode, a.by, a.reason, a.at
           FROM intent_audit a WHERE $1::text IS NULL OR a.lease = $1
           ORDER BY a.at DESC, a.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'mode', m.id, m.scheduler, m.rule, NULL, NULL, m.from_mode, m.from_effective, m.to_mode, m.by, m.reason, m.at
           FROM alert_mode_audit m WHERE $1::text IS NULL OR m.scheduler = $1
           ORDER BY m.at DESC, m.id DESC LIMIT $2)
        ) u ORDER BY u.at DESC, u.kind DESC, u.id DESC LIMIT $2) x), '[]'::json) AS entries`,
    values: [filter.scheduler, filter.limit],
  })) as { rows: { now_ms: number; entries: AuditRow[] }[] };
  const row = rows[0]!;
  return { nowMs: Math.floor(row.now_ms), entries: row.entries.map(entry).filter((e): e is AuditEntry => e !== null) };
}

/**
 * The audit trail of operator actions, newest first: who, what, from → to,
 * why, when. Read from intent_audit, whose rows are never pruned; "from" is
 * the previous row of the same scheduler (every change is appended in the
 * same transaction that makes it, lib/lease/intent.ts).
 *
 * Guarantees: one statement, with the database time it was read at; at most
 * `AUDIT_LIMIT_MAX` entries.
 */
import type { AuditEntry } from '../../api/types';
import type { Queryable } from '../live/facts';

export const AUDIT_LIMIT_DEFAULT = 100;
export const AUDIT_LIMIT_MAX = 500;

interface AuditRow {
  id: number;
  lease: string;
  disabled: boolean;
  was: boolean | null;
  by: string;
  reason: string;
  at: string;
}

const state = (disabled: boolean | null) => (disabled ? 'disabled' : 'enabled');

export async function readAudit(db: Queryable, filter: { scheduler: string | null; limit: number }): Promise<{ nowMs: number; entries: AuditEntry[] }> {
  const { rows } = (await db.query({
    name: 'audit_read',
    text: `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms,
      coalesce((SELECT json_agg(x ORDER BY x.at DESC, x.id DESC) FROM (
        SELECT a.id, a.lease, a.disabled, lag(a.disabled) OVER (PARTITION BY a.lease ORDER BY a.at, a.id) AS was, a.by, a.reason, a.at
        FROM intent_audit a WHERE $1::text IS NULL OR a.lease = $1
        ORDER BY a.at DESC, a.id DESC LIMIT $2) x), '[]'::json) AS entries`,
    values: [filter.scheduler, filter.limit],
  })) as { rows: { now_ms: number; entries: AuditRow[] }[] };
  const row = rows[0]!;
  return {
    nowMs: Math.floor(row.now_ms),
    entries: row.entries.map((entry) => ({
      id: `intent-${entry.id}`,
      at: new Date(entry.at).toISOString(),
      who: entry.by,
      action: entry.disabled ? 'scheduler.disable' : 'scheduler.enable',
      target: entry.lease,
      from: state(entry.was),
      to: state(entry.disabled),
      reason: entry.reason,
    })),
  };
}

/**
 * The audit trail of operator actions, newest first: who (and how that was
 * established), what, from → to, why, when — scheduler intent
 * (intent_audit), alert modes (alert_mode_audit), the demo's fault drills
 * (fault_drill_audit), report tokens created or revoked
 * (report_token_audit), scheduler labels set by hand (label_audit),
 * maintenance windows (maintenance_audit), team owners (team_owner_audit) and
 * "run now" requests with their state now, pending, taken or expired
 * (run_requests), none ever pruned; windows and owners are fleet-wide, listed
 * unfiltered only. An intent's "from" is the previous
 * row of the same scheduler (every change is appended in the same
 * transaction that makes it, lib/lease/intent.ts); a mode change records its
 * own from (the setting at that level, or the mode it inherited).
 *
 * Guarantees: one statement, with the database time it was read at; at most
 * `AUDIT_LIMIT_MAX` entries. Filtered by scheduler: its intent changes and
 * its alert-mode overrides (a rule's own mode concerns every scheduler and
 * is listed unfiltered only) and the fault drills on its processes.
 */
import { DRILL_ACTIONS } from '../../api/drill-actions';
import type { IdentifiedBy } from '../../limits';
import type { AuditEntry, DrillAction, MaintenanceWindowView } from '../../api/types';
import { isAlertName } from '../../alerts';
import { formatLabels, type Labels } from '../../limits/labels';
import type { Queryable } from '../live/facts';

export const AUDIT_LIMIT_DEFAULT = 100;
export const AUDIT_LIMIT_MAX = 500;

type Who = { by: string; identified_by: IdentifiedBy | null };
type AuditRow = Who &
  (
    | { kind: 'intent'; id: number; scheduler: string; disabled: boolean; was: boolean | null; reason: string; at: string }
    | {
        kind: 'fault';
        id: number;
        scheduler: string;
        process: string;
        instance: string | null;
        drill: string;
        from_state: string;
        to_state: string;
        reason: string;
        at: string;
      }
    // The union's columns are named by its first branch: a token's id comes as `instance`, its action as `drill`.
    | { kind: 'token'; id: number; scheduler: string; instance: string; drill: 'create' | 'revoke'; reason: string; at: string }
    // A run-now request: the holder asked comes as `process`, its occurrence (once taken) as `instance`, its state now as `from_state`.
    | {
        kind: 'run';
        id: number;
        scheduler: string;
        process: string;
        instance: string | null;
        from_state: 'pending' | 'taken' | 'expired';
        reason: string;
        at: string;
      }
    // A label change's from and to come as jsonb text in `from_state` / `to_state` (null: the registration's labels).
    | { kind: 'labels'; id: number; scheduler: string; from_state: string | null; to_state: string | null; reason: string; at: string }
    // A window change: its number as `instance`, its action as `drill`, the window before and after as jsonb text.
    | {
        kind: 'window';
        id: number;
        scheduler: null;
        instance: string;
        drill: 'create' | 'edit' | 'cancel';
        from_state: string | null;
        to_state: string;
        reason: string;
        at: string;
      }
    // A team owner change: the team as `instance`, before and after as jsonb text.
    | { kind: 'owner'; id: number; scheduler: null; instance: string; from_state: string | null; to_state: string; reason: string; at: string }
    | {
        kind: 'mode';
        id: number;
        scheduler: string | null;
        rule: string;
        from_mode: string | null;
        from_effective: string;
        to_mode: string;
        reason: string;
        at: string;
      }
  );

const state = (disabled: boolean | null) => (disabled ? 'disabled' : 'enabled');

/** An operator's label set as the trail shows it; null: the registration's labels applied. */
function labelState(text: string | null): string {
  if (text === null) return '(registration)';
  const labels = JSON.parse(text) as Labels;
  return Object.keys(labels).length === 0 ? '(none)' : formatLabels(labels);
}

/** A maintenance window as the trail shows it: what it covers, when, and where it stood. */
function windowState(text: string | null): string {
  if (text === null) return 'none';
  const w = JSON.parse(text) as MaintenanceWindowView;
  const covers = w.selector ?? (w.schedulers ?? []).join(',');
  return `${covers} ${w.startsAt} – ${w.endsAt}${w.weekly ? ' weekly' : ''} (${w.state})`;
}

function ownerState(text: string | null): string {
  if (text === null) return 'none';
  const o = JSON.parse(text) as { contact: string; runbookUrl: string | null };
  return o.runbookUrl === null ? o.contact : `${o.contact}, ${o.runbookUrl}`;
}

const isDrill = (drill: string): drill is DrillAction => (DRILL_ACTIONS as readonly string[]).includes(drill);

function entry(row: AuditRow): AuditEntry | null {
  const common = { at: new Date(row.at).toISOString(), who: row.by, identifiedBy: row.identified_by, reason: row.reason };
  switch (row.kind) {
    case 'intent':
      return {
        ...common,
        id: `intent-${row.id}`,
        action: row.disabled ? 'scheduler.disable' : 'scheduler.enable',
        target: row.scheduler,
        scheduler: row.scheduler,
        rule: null,
        fault: null,
        from: state(row.was),
        to: state(row.disabled),
      };
    case 'fault':
      if (!isDrill(row.drill)) return null;
      return {
        ...common,
        id: `fault-${row.id}`,
        action: 'demo.fault',
        target: row.process,
        scheduler: row.scheduler,
        rule: null,
        fault: { drill: row.drill, process: row.process, instance: row.instance },
        from: row.from_state,
        to: row.to_state,
      };
    case 'token':
      return {
        ...common,
        id: `token-${row.id}`,
        action: row.drill === 'create' ? 'report_token.create' : 'report_token.revoke',
        target: `report token ${row.instance}`,
        scheduler: row.scheduler,
        rule: null,
        fault: null,
        from: row.drill === 'create' ? 'none' : 'active',
        to: row.drill === 'create' ? 'active' : 'revoked',
      };
    case 'labels':
      return {
        ...common,
        id: `labels-${row.id}`,
        action: 'scheduler.labels',
        target: row.scheduler,
        scheduler: row.scheduler,
        rule: null,
        fault: null,
        from: labelState(row.from_state),
        to: labelState(row.to_state),
      };
    case 'window':
      return {
        ...common,
        id: `window-${row.id}`,
        action: `maintenance.${row.drill}`,
        target: `maintenance window #${row.instance}`,
        scheduler: null,
        rule: null,
        fault: null,
        from: windowState(row.from_state),
        to: windowState(row.to_state),
      };
    case 'owner':
      return {
        ...common,
        id: `owner-${row.id}`,
        action: 'team.owner',
        target: `team ${row.instance}`,
        scheduler: null,
        rule: null,
        fault: null,
        from: ownerState(row.from_state),
        to: ownerState(row.to_state),
      };
    case 'run':
      return {
        ...common,
        id: `run-${row.id}`,
        action: 'scheduler.run_now',
        target: row.instance ?? row.scheduler,
        scheduler: row.scheduler,
        rule: null,
        fault: null,
        from: `asked ${row.process}`,
        to: row.from_state === 'taken' && row.instance !== null ? `taken: ${row.instance}` : row.from_state,
      };
    case 'mode':
      if (!isAlertName(row.rule)) return null;
      return {
        ...common,
        id: `mode-${row.id}`,
        action: 'alert.mode',
        target: row.scheduler ?? row.rule,
        scheduler: row.scheduler,
        rule: row.rule,
        fault: null,
        from: row.from_mode ?? `${row.from_effective} (inherited)`,
        to: row.to_mode,
      };
    default: {
      const unreachable: never = row;
      throw new Error(`unexpected audit row ${JSON.stringify(unreachable)}`);
    }
  }
}

export async function readAudit(db: Queryable, filter: { scheduler: string | null; limit: number }): Promise<{ nowMs: number; entries: AuditEntry[] }> {
  const { rows } = (await db.query({
    text: `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms,
      coalesce((SELECT json_agg(x ORDER BY x.at DESC, x.kind DESC, x.id DESC) FROM (
        SELECT * FROM (
          (SELECT 'intent' AS kind, a.id, a.lease AS scheduler, NULL::text AS rule, a.disabled,
                  lag(a.disabled) OVER (PARTITION BY a.lease ORDER BY a.at, a.id) AS was,
                  NULL::text AS from_mode, NULL::text AS from_effective, NULL::text AS to_mode,
                  NULL::text AS process, NULL::text AS instance, NULL::text AS drill, NULL::text AS from_state, NULL::text AS to_state,
                  a.by, a.identified_by, a.reason, a.at
           FROM intent_audit a WHERE $1::text IS NULL OR a.lease = $1
           ORDER BY a.at DESC, a.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'mode', m.id, m.scheduler, m.rule, NULL, NULL, m.from_mode, m.from_effective, m.to_mode,
                  NULL, NULL, NULL, NULL, NULL, m.by, m.identified_by, m.reason, m.at
           FROM alert_mode_audit m WHERE $1::text IS NULL OR m.scheduler = $1
           ORDER BY m.at DESC, m.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'fault', f.id, f.lease, NULL, NULL, NULL, NULL, NULL, NULL,
                  f.process, f.instance, f.action, f.from_state, f.to_state, f.by, f.identified_by, f.reason, f.at
           FROM fault_drill_audit f WHERE $1::text IS NULL OR f.lease = $1
           ORDER BY f.at DESC, f.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'token', t.id, t.scheduler, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, t.token_id, t.action, NULL, NULL, t.by, t.identified_by, t.reason, t.at
           FROM report_token_audit t WHERE $1::text IS NULL OR t.scheduler = $1
           ORDER BY t.at DESC, t.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'labels', l.id, l.scheduler, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, NULL, NULL, l.from_labels::text, l.to_labels::text, l.by, l.identified_by, l.reason, l.at
           FROM label_audit l WHERE $1::text IS NULL OR l.scheduler = $1
           ORDER BY l.at DESC, l.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'window', w.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, w.window_id::text, w.action, w.from_window::text, w.to_window::text, w.by, w.identified_by, w.reason, w.at
           FROM maintenance_audit w WHERE $1::text IS NULL
           ORDER BY w.at DESC, w.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'owner', o.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, o.team, NULL, o.from_owner::text, o.to_owner::text, o.by, o.identified_by, o.reason, o.at
           FROM team_owner_audit o WHERE $1::text IS NULL
           ORDER BY o.at DESC, o.id DESC LIMIT $2)
          UNION ALL
          (SELECT 'run', r.id, r.lease, NULL, NULL, NULL, NULL, NULL, NULL,
                  r.holder, r.occurrence, NULL,
                  CASE WHEN r.taken_at IS NOT NULL THEN 'taken' WHEN r.expires_at > clock_timestamp() THEN 'pending' ELSE 'expired' END,
                  NULL, r.by, r.identified_by, r.reason, r.requested_at
           FROM run_requests r WHERE $1::text IS NULL OR r.lease = $1
           ORDER BY r.requested_at DESC, r.id DESC LIMIT $2)
        ) u ORDER BY u.at DESC, u.kind DESC, u.id DESC LIMIT $2) x), '[]'::json) AS entries`,
    values: [filter.scheduler, filter.limit],
  })) as { rows: { now_ms: number; entries: AuditRow[] }[] };
  const row = rows[0]!;
  return { nowMs: Math.floor(row.now_ms), entries: row.entries.map(entry).filter((e): e is AuditEntry => e !== null) };
}

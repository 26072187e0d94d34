/**
 * Maintenance windows and team owners as the readers need them: the alert
 * evaluator (whose alerts not to deliver, what to say about an owner), the
 * alerts page and the scheduler page (why an alert is suppressed, that a
 * scheduler is in maintenance, who owns it).
 *
 * Guarantees: two small statements, bounded by their tables (at most 200
 * windows, 1,000 teams); a window is judged open by lib/limits/maintenance.ts
 * at the caller's `now` (the database's time of its status read), so a window
 * that ends stops counting at the next read — no restart, no job to run.
 * Non-guarantees: one snapshot with the status read (a window created a
 * moment after it counts from the next round).
 */
import { type Labels } from '../../limits/labels';
import { coveringWindow, type MaintenanceWindow, openWindows, type OpenWindow, windowPhase } from '../../limits/maintenance';
import type { MaintenanceWindowView } from '../../api/types';
import { toIso } from '../../status/time';
import type { Routing, Suppression } from '../types';

export type { MaintenanceWindow };
import { msCol, type Queryable } from './db';

/** Windows not cancelled and not over for good (one-off ones still to end, weekly ones). */
const LIVE_WINDOWS_SQL = `SELECT id, selector, schedulers, ${msCol('starts_at', 'starts_ms')}, ${msCol('ends_at', 'ends_ms')}, weekly, reason, by
  FROM maintenance_windows WHERE cancelled_at IS NULL AND (weekly OR ends_at > clock_timestamp()) ORDER BY id`;

interface WindowRow {
  id: string;
  selector: string | null;
  schedulers: string[] | null;
  starts_ms: number;
  ends_ms: number;
  weekly: boolean;
  reason: string;
  by: string;
}

function windowOfRow(r: WindowRow): MaintenanceWindow {
  return {
    id: Number(r.id),
    selector: r.selector,
    schedulers: r.schedulers,
    startsAtMs: Math.round(r.starts_ms),
    endsAtMs: Math.round(r.ends_ms),
    weekly: r.weekly,
    reason: r.reason,
    by: r.by,
  };
}

/** Every column of a window, times as epoch ms (../limits/maintenance.ts and the API read both). */
export const WINDOW_COLUMNS = `id, selector, schedulers, ${msCol('starts_at', 'starts_ms')}, ${msCol('ends_at', 'ends_ms')}, weekly, reason, by,
  ${msCol('created_at', 'created_ms')}, ${msCol('updated_at', 'updated_ms')}, ${msCol('cancelled_at', 'cancelled_ms')}`;

export interface FullWindowRow extends WindowRow {
  created_ms: number;
  updated_ms: number;
  cancelled_ms: number | null;
}

/** A stored window as the API answers it, with where it stands at `nowMs`. */
export function windowView(r: FullWindowRow, nowMs: number): MaintenanceWindowView {
  const w = windowOfRow(r);
  const phase = windowPhase(w, r.cancelled_ms !== null, nowMs);
  return {
    id: w.id,
    selector: w.selector,
    schedulers: w.schedulers === null ? null : [...w.schedulers],
    startsAt: toIso(w.startsAtMs),
    endsAt: toIso(w.endsAtMs),
    weekly: w.weekly,
    reason: w.reason,
    by: w.by,
    createdAt: toIso(Math.round(r.created_ms)),
    updatedAt: toIso(Math.round(r.updated_ms)),
    cancelledAt: r.cancelled_ms === null ? null : toIso(Math.round(r.cancelled_ms)),
    state: phase.state,
    openUntil: phase.state === 'open' ? toIso(phase.toMs) : null,
    nextOpensAt: phase.state === 'scheduled' ? toIso(phase.nextFromMs) : null,
  };
}

/** Every window kept (at most 200), newest first, as the API answers them, at the database's now. */
export async function readWindowList(db: Queryable): Promise<{ nowMs: number; windows: MaintenanceWindowView[] }> {
  const now = await db.query({ text: `SELECT ${msCol('clock_timestamp()', 'now_ms')}` });
  const nowMs = Math.floor((now.rows[0] as { now_ms: number }).now_ms);
  const { rows } = await db.query({ text: `SELECT ${WINDOW_COLUMNS} FROM maintenance_windows ORDER BY id DESC` });
  return { nowMs, windows: (rows as FullWindowRow[]).map((r) => windowView(r, nowMs)) };
}

/** The windows that are or may yet be open (cancelled and ended one-off windows left out). */
export async function readLiveWindows(db: Queryable): Promise<MaintenanceWindow[]> {
  const { rows } = await db.query({ text: LIVE_WINDOWS_SQL });
  return (rows as WindowRow[]).map(windowOfRow);
}

/** Which windows cover which schedulers at `nowMs`: ask per scheduler with its labels. */
export interface MaintenanceAt {
  of(name: string, labels: Labels): Suppression | null;
}

export function maintenanceAt(windows: readonly MaintenanceWindow[], nowMs: number): MaintenanceAt {
  const open: OpenWindow[] = openWindows(windows, nowMs);
  return {
    of(name, labels) {
      if (open.length === 0) return null;
      const o = coveringWindow(open, name, labels);
      return o === null ? null : { window: o.window.id, reason: o.window.reason, by: o.window.by, until: toIso(o.toMs) };
    },
  };
}

/** The labels of named schedulers as the list shows them (an operator's when set, else the registration's). */
export async function readLabelsOf(db: Queryable, names: readonly string[]): Promise<ReadonlyMap<string, Labels>> {
  if (names.length === 0) return new Map();
  const { rows } = await db.query({
    text: `SELECT n.name, coalesce(o.labels, s.labels, '{}'::jsonb) AS labels FROM unnest($1::text[]) AS n(name)
           LEFT JOIN label_overrides o ON o.name = n.name LEFT JOIN schedulers s ON s.name = n.name`,
    values: [names],
  });
  return new Map((rows as { name: string; labels: Labels }[]).map((r) => [r.name, r.labels]));
}

/** Who owns a team's schedulers: where to reach them and their runbook (null: none given). */
export interface TeamOwner {
  contact: string;
  runbookUrl: string | null;
}

/** The label a scheduler's team is read from (`team=payments`): alerts carry it as their `team` label. */
export const TEAM_LABEL = 'team';

export async function readTeamOwners(db: Queryable): Promise<ReadonlyMap<string, TeamOwner>> {
  const { rows } = await db.query({ text: 'SELECT team, contact, runbook_url FROM team_owners' });
  return new Map(
    (rows as { team: string; contact: string; runbook_url: string | null }[]).map((r) => [r.team, { contact: r.contact, runbookUrl: r.runbook_url }]),
  );
}

/** A scheduler's routing: its team label (none: no routing) and the owner an operator gave that team. */
export function routingOf(labels: Labels, owners: ReadonlyMap<string, TeamOwner>): Routing | null {
  const team = labels[TEAM_LABEL];
  if (team === undefined || team === '') return null;
  const owner = owners.get(team);
  return { team, contact: owner?.contact ?? null, runbook: owner?.runbookUrl ?? null };
}

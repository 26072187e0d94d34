/**
 * Maintenance windows, an operator's writes: create, edit (replace whole),
 * cancel — each with a reason, each audited in maintenance_audit.
 *
 * Guarantees
 * - The window is checked by lib/limits/maintenance.ts before anything is
 *   written (a malformed selector, an end before its start, a span over 30
 *   days: `invalid`, nothing changed) and again by the database's CHECKs.
 * - Every change appends one maintenance_audit row in the same transaction,
 *   timed by the database clock, with the window before and after; changes
 *   are serialised by one advisory lock (windows are few and changed at human
 *   speed), so the open-window cap and from → to are exact.
 * - Bounded (db/schema.ts): at most MAINTENANCE_OPEN_MAX windows not closed
 *   (`too_many`); a create deletes closed windows older than 7 days and all
 *   but the 100 newest closed ones. Their history stays in the audit trail.
 * - A one-off window that already ended cannot be created, edited or
 *   cancelled (`closed`): the past is not rewritten.
 * Not guaranteed: that a selector matches anything — a window may be set up
 * before its schedulers are labelled (the list shows what it covers).
 */
import type pg from 'pg';
import { inTransaction } from '../../db/transaction';
import type { MaintenanceWindowRequest, MaintenanceWindowView } from '../api/types';
import type { IdentifiedBy } from '../limits';
import { MAINTENANCE_OPEN_MAX, spanProblem, targetProblem } from '../limits/maintenance';
import { type FullWindowRow, WINDOW_COLUMNS, windowView } from '../alerts/store/maintenance';

export interface WindowSpec {
  selector: string | null;
  schedulers: readonly string[] | null;
  startsAtMs: number;
  endsAtMs: number;
  weekly: boolean;
}

export interface Actor {
  by: string;
  reason: string;
  identifiedBy: IdentifiedBy;
}

export type WindowChangeResult =
  | { kind: 'changed'; action: 'create' | 'edit' | 'cancel'; from: MaintenanceWindowView | null; window: MaintenanceWindowView }
  | { kind: 'invalid'; message: string }
  | { kind: 'too_many' }
  | { kind: 'unknown_window' }
  | { kind: 'closed'; window: MaintenanceWindowView };

/** A window as the API's request (checked by its schema) names it. */
export const windowSpecOf = (w: MaintenanceWindowRequest): WindowSpec => ({
  selector: w.selector ?? null,
  schedulers: w.schedulers ?? null,
  startsAtMs: Date.parse(w.startsAt),
  endsAtMs: Date.parse(w.endsAt),
  weekly: w.weekly ?? false,
});

/** Why a change was refused, in the words the API and the command line both say. */
export function windowRefusal(result: Exclude<WindowChangeResult, { kind: 'changed' }>): string {
  switch (result.kind) {
    case 'invalid':
      return result.message;
    case 'too_many':
      return `at most ${MAINTENANCE_OPEN_MAX} windows open or to come; cancel one first`;
    case 'unknown_window':
      return 'no such maintenance window';
    case 'closed':
      return `window ${result.window.id} is ${result.window.state}; it cannot change`;
    default: {
      const unreachable: never = result;
      throw new Error(`unexpected window result ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Closed windows kept for the list: this long after they closed, and at most this many. */
const CLOSED_KEEP = { days: 7, rows: 100 } as const;

const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms`;
const LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.maintenance', 0))";

type Client = pg.PoolClient;

/** One change under the maintenance lock: committed when it changed a window, rolled back on any other answer. */
const lockedChange = (pool: Pick<pg.Pool, 'connect'>, body: (client: Client) => Promise<WindowChangeResult>): Promise<WindowChangeResult> =>
  inTransaction(
    pool,
    async (client) => {
      await client.query(LOCK);
      return body(client);
    },
    (result) => result.kind === 'changed',
  );

function specProblem(spec: WindowSpec): string | null {
  return targetProblem(spec.selector, spec.schedulers) ?? spanProblem(spec.startsAtMs, spec.endsAtMs, spec.weekly);
}

async function dbNow(client: Client): Promise<number> {
  const { rows } = await client.query<{ now_ms: number }>(`SELECT ${NOW_MS}`);
  return rows[0]!.now_ms;
}

async function audit(
  client: Client,
  id: number,
  action: 'create' | 'edit' | 'cancel',
  from: MaintenanceWindowView | null,
  to: MaintenanceWindowView,
  actor: Actor,
) {
  await client.query(
    `INSERT INTO maintenance_audit (window_id, action, from_window, to_window, by, identified_by, reason, at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, clock_timestamp())`,
    [id, action, from === null ? null : JSON.stringify(from), JSON.stringify(to), actor.by, actor.identifiedBy, actor.reason],
  );
}

/** The window as it stands now, if it may still change (scheduled or open); a one-off that ended or a cancelled one may not. */
async function changeable(
  client: Client,
  id: number,
): Promise<
  { kind: 'changeable'; nowMs: number; from: MaintenanceWindowView } | { kind: 'unknown_window' } | { kind: 'closed'; window: MaintenanceWindowView }
> {
  const nowMs = await dbNow(client);
  const { rows } = await client.query<FullWindowRow>(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE id = $1`, [id]);
  if (rows[0] === undefined) return { kind: 'unknown_window' };
  const from = windowView(rows[0], nowMs);
  return from.state === 'cancelled' || from.state === 'ended' ? { kind: 'closed', window: from } : { kind: 'changeable', nowMs, from };
}

const ended = (spec: Pick<WindowSpec, 'endsAtMs' | 'weekly'>, nowMs: number) => !spec.weekly && spec.endsAtMs <= nowMs;

export async function createWindow(pool: Pick<pg.Pool, 'connect'>, spec: WindowSpec, actor: Actor): Promise<WindowChangeResult> {
  const problem = specProblem(spec);
  if (problem !== null) return { kind: 'invalid', message: problem };
  return lockedChange(pool, async (client) => {
    const nowMs = await dbNow(client);
    if (ended(spec, nowMs)) return { kind: 'invalid', message: 'endsAt: already past' };
    // The bound: closed windows go (their history is in the audit trail), open ones are capped.
    await client.query(
      `DELETE FROM maintenance_windows WHERE id IN (
         SELECT id FROM maintenance_windows
         WHERE cancelled_at IS NOT NULL OR (NOT weekly AND ends_at <= clock_timestamp())
         ORDER BY coalesce(cancelled_at, ends_at) DESC OFFSET $1)
       OR cancelled_at < clock_timestamp() - make_interval(days => $2)
       OR (cancelled_at IS NULL AND NOT weekly AND ends_at < clock_timestamp() - make_interval(days => $2))`,
      [CLOSED_KEEP.rows, CLOSED_KEEP.days],
    );
    const open = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM maintenance_windows WHERE cancelled_at IS NULL AND (weekly OR ends_at > clock_timestamp())',
    );
    if (open.rows[0]!.n >= MAINTENANCE_OPEN_MAX) return { kind: 'too_many' };
    const { rows } = await client.query<FullWindowRow>(
      `INSERT INTO maintenance_windows (selector, schedulers, starts_at, ends_at, weekly, reason, by, created_at, updated_at)
       VALUES ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0), $5, $6, $7, clock_timestamp(), clock_timestamp())
       RETURNING ${WINDOW_COLUMNS}`,
      [spec.selector, spec.schedulers, spec.startsAtMs, spec.endsAtMs, spec.weekly, actor.reason, actor.by],
    );
    const window = windowView(rows[0]!, nowMs);
    await audit(client, window.id, 'create', null, window, actor);
    return { kind: 'changed', action: 'create', from: null, window };
  });
}

/** Replace a window whole (target, span, recurrence); its reason becomes this change's. */
export async function editWindow(pool: Pick<pg.Pool, 'connect'>, id: number, spec: WindowSpec, actor: Actor): Promise<WindowChangeResult> {
  const problem = specProblem(spec);
  if (problem !== null) return { kind: 'invalid', message: problem };
  return lockedChange(pool, async (client) => {
    const found = await changeable(client, id);
    if (found.kind !== 'changeable') return found;
    const { nowMs, from } = found;
    if (ended(spec, nowMs)) return { kind: 'invalid', message: 'endsAt: already past (cancel the window to end it now)' };
    const { rows } = await client.query<FullWindowRow>(
      `UPDATE maintenance_windows SET selector = $2, schedulers = $3, starts_at = to_timestamp($4 / 1000.0), ends_at = to_timestamp($5 / 1000.0),
         weekly = $6, reason = $7, by = $8, updated_at = clock_timestamp()
       WHERE id = $1 RETURNING ${WINDOW_COLUMNS}`,
      [id, spec.selector, spec.schedulers, spec.startsAtMs, spec.endsAtMs, spec.weekly, actor.reason, actor.by],
    );
    const window = windowView(rows[0]!, nowMs);
    await audit(client, id, 'edit', from, window, actor);
    return { kind: 'changed', action: 'edit', from, window };
  });
}

/** Cancel a window: it closes at once (its schedulers' alerts are delivered again from the next round). */
export async function cancelWindow(pool: Pick<pg.Pool, 'connect'>, id: number, actor: Actor): Promise<WindowChangeResult> {
  return lockedChange(pool, async (client) => {
    const found = await changeable(client, id);
    if (found.kind !== 'changeable') return found;
    const { nowMs, from } = found;
    const { rows } = await client.query<FullWindowRow>(
      `UPDATE maintenance_windows SET cancelled_at = clock_timestamp(), updated_at = clock_timestamp() WHERE id = $1 RETURNING ${WINDOW_COLUMNS}`,
      [id],
    );
    const window = windowView(rows[0]!, nowMs);
    await audit(client, id, 'cancel', from, window, actor);
    return { kind: 'changed', action: 'cancel', from, window };
  });
}

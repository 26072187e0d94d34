/**
 * Reliability reports (lib/status/reliability.ts): the time a scheduler, or
 * every scheduler a label selector picks, spent in each health over 24 h,
 * 7 d or 30 d, from the health rollup — whole UTC days from health_days and
 * whole hours from health_hours (folded by the retention pruner), the
 * partial hours at the window's ends from health_changes and
 * health_observed_minutes through leaseboard_health_spent (migration
 * 0040_reliability).
 *
 * Guarantees: two statements per report (the database's now with the folded
 * rows kept and the schedulers asked; then the times, one statement whatever
 * the group's size); per scheduler at most 30 day rows, 23 hour rows and the
 * changes of two partial hours, so a 30-day report over 10,000 schedulers
 * reads rows per scheduler, not per change of the month. Time nobody judged, and
 * time before the rollup was kept, is unknown (lib/status `schedulerReliability`).
 * Unknown scheduler → not_found. Non-guarantee: resolution is the evaluator's
 * round (5 s); the current minute counts as unknown until a round marks it.
 */
import type { GroupReliabilityResponse, ReliabilityResponse, SchedulerReliability } from '../../api/types';
import type { SchedulerLabels as Labels } from '../../status/types';
import {
  groupReliability,
  type HealthTimes,
  type ReliabilityWindow,
  reliabilityFrame,
  schedulerReliability,
  splitWindow,
  type FoldedRange,
  type Span,
} from '../../status/reliability';
import { HEALTH_SEVERITY } from '../../status/health';
import { toIso as iso } from '../../status/time';
import { failed, okResult, type ReadResult, UNKNOWN_SCHEDULER } from '../domain/result';
import type { Queryable } from '../live/facts';
import { unreadableResult } from '../store/deadline';
import type { ReadDeps } from './detail';

/** The database's now (whole ms), the folded days kept, and the schedulers (name, first registration, labels); $1: one name or null for all. */
const HEAD_SQL = `
SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms,
  (SELECT (extract(epoch FROM min(day)) * 1000)::float8 FROM health_days) AS first_day_ms,
  (SELECT (extract(epoch FROM max(day)) * 1000)::float8 FROM health_days) AS last_day_ms,
  (SELECT (extract(epoch FROM min(hour)) * 1000)::float8 FROM health_hours) AS first_hour_ms,
  (SELECT (extract(epoch FROM max(hour)) * 1000)::float8 FROM health_hours) AS last_hour_ms,
  (SELECT COALESCE(json_agg(json_build_object('name', s.name, 'born_ms', ceil(extract(epoch FROM s.first_registered_at) * 1000)::float8,
            'labels', COALESCE(lb.labels, s.labels)) ORDER BY s.name), '[]')
     FROM schedulers s LEFT JOIN label_overrides lb ON lb.name = s.name WHERE $1::text IS NULL OR s.name = $1) AS schedulers`;

/** Sums of a folded table's rows per scheduler, as (name, health, ms) rows; `where` picks its rows. */
const foldedTimes = (table: string, where: string) => `
    SELECT f.name, u.health, u.ms FROM (
      SELECT d.name, sum(d.progressing_ms) AS progressing, sum(d.idle_ms) AS idle, sum(d.stalled_ms) AS stalled,
        sum(d.no_leader_ms) AS no_leader, sum(d.unknown_ms) AS unknown, sum(d.disabled_ms) AS disabled
      FROM ${table} d WHERE (${where}) AND ($1::text[] IS NULL OR d.name = ANY ($1::text[]))
      GROUP BY d.name
    ) f
    CROSS JOIN LATERAL (VALUES ('progressing', f.progressing), ('idle', f.idle), ('stalled', f.stalled),
      ('no_leader', f.no_leader), ('unknown', f.unknown), ('disabled', f.disabled)) AS u(health, ms)`;

/**
 * The time per health of schedulers $1 (null: all): whole days [$2, $3) from health_days; whole hours
 * [$4, $5) and [$6, $7) from health_hours; the spans [$8, $9) and [$10, $11) from the changes. An empty
 * span ([t, t)) reads nothing.
 */
const TIMES_SQL = `
SELECT t.name, t.health, sum(t.ms)::float8 AS ms FROM (
  ${foldedTimes('health_days', 'd.day >= $2::timestamptz AND d.day < $3::timestamptz')}
  UNION ALL
  ${foldedTimes('health_hours', '(d.hour >= $4::timestamptz AND d.hour < $5::timestamptz) OR (d.hour >= $6::timestamptz AND d.hour < $7::timestamptz)')}
  UNION ALL
  SELECT r.name, r.health, r.ms FROM leaseboard_health_spent($1::text[], $8::timestamptz, $9::timestamptz) r
  UNION ALL
  SELECT r.name, r.health, r.ms FROM leaseboard_health_spent($1::text[], $10::timestamptz, $11::timestamptz) r
) t
GROUP BY t.name, t.health`;

interface Member {
  name: string;
  bornMs: number;
  labels: Labels;
}

interface Head {
  nowMs: number;
  days: FoldedRange | null;
  hours: FoldedRange | null;
  schedulers: Member[];
}

async function readHead(db: Queryable, name: string | null): Promise<Head> {
  const { rows } = await db.query({ text: HEAD_SQL, values: [name] });
  const r = rows[0] as {
    now_ms: number;
    first_day_ms: number | null;
    last_day_ms: number | null;
    first_hour_ms: number | null;
    last_hour_ms: number | null;
    schedulers: { name: string; born_ms: number; labels: Labels }[];
  };
  const range = (firstMs: number | null, lastMs: number | null) => (firstMs === null || lastMs === null ? null : { firstMs, lastMs });
  return {
    nowMs: r.now_ms,
    days: range(r.first_day_ms, r.last_day_ms),
    hours: range(r.first_hour_ms, r.last_hour_ms),
    schedulers: r.schedulers.map((s) => ({ name: s.name, bornMs: s.born_ms, labels: s.labels })),
  };
}

/** Time per health per scheduler over `frame`; `names` null: every scheduler. */
async function readTimes(db: Queryable, names: readonly string[] | null, frame: Span, head: Head): Promise<Map<string, Partial<HealthTimes>>> {
  const split = splitWindow(frame, head.days, head.hours);
  const none = { fromMs: frame.toMs, toMs: frame.toMs };
  const bounds = (span: Span | null | undefined) => [iso((span ?? none).fromMs), iso((span ?? none).toMs)];
  const { rows } = await db.query({
    text: TIMES_SQL,
    values: [names, ...bounds(split.days), ...bounds(split.hours[0]), ...bounds(split.hours[1]), ...bounds(split.raw[0]), ...bounds(split.raw[1])],
  });
  const times = new Map<string, Partial<HealthTimes>>();
  for (const row of rows as { name: string; health: string; ms: number }[]) {
    if (!(HEALTH_SEVERITY as readonly string[]).includes(row.health)) continue;
    let t = times.get(row.name);
    if (t === undefined) times.set(row.name, (t = {}));
    t[row.health as keyof HealthTimes] = row.ms;
  }
  return times;
}

function memberReport(frame: Span, member: Member, stored: Partial<HealthTimes> | undefined): SchedulerReliability {
  return { name: member.name, registeredAt: iso(member.bornMs), ...schedulerReliability(frame, member.bornMs, stored ?? {}) };
}

export async function readReliability(deps: ReadDeps, name: string, window: ReliabilityWindow): Promise<ReadResult<ReliabilityResponse>> {
  try {
    const read = await deps.observer.read(
      'reliability read',
      async () => {
        const head = await readHead(deps.db, name);
        const member = head.schedulers[0];
        if (member === undefined) return { head, frame: null, report: null };
        const frame = reliabilityFrame(window, head.nowMs);
        const times = await readTimes(deps.db, [name], frame, head);
        return { head, frame, report: memberReport(frame, member, times.get(name)) };
      },
      (r) => r.head.nowMs,
    );
    if (read.frame === null || read.report === null) return failed(UNKNOWN_SCHEDULER);
    return okResult({ window, from: iso(read.frame.fromMs), to: iso(read.frame.toMs), scheduler: read.report });
  } catch (error) {
    return unreadableResult(error);
  }
}

export interface GroupReliabilityQuery {
  window: ReliabilityWindow;
  /** Whether a scheduler's labels put it in the group (a label selector; null: every scheduler). */
  picks: ((labels: Labels) => boolean) | null;
  /** The selector as text, for the answer ('' for none). */
  selectorText: string;
}

export async function readGroupReliability(deps: ReadDeps, query: GroupReliabilityQuery): Promise<ReadResult<GroupReliabilityResponse>> {
  try {
    const read = await deps.observer.read(
      'group reliability read',
      async () => {
        const head = await readHead(deps.db, null);
        const frame = reliabilityFrame(query.window, head.nowMs);
        const picks = query.picks;
        const members = picks === null ? head.schedulers : head.schedulers.filter((s) => picks(s.labels));
        const names = picks === null ? null : members.map((m) => m.name);
        const times = members.length === 0 ? new Map<string, Partial<HealthTimes>>() : await readTimes(deps.db, names, frame, head);
        return { head, frame, schedulers: members.map((m) => memberReport(frame, m, times.get(m.name))) };
      },
      (r) => r.head.nowMs,
    );
    const { accountedMs, spentMs, fractions } = groupReliability(read.schedulers);
    return okResult({
      window: query.window,
      from: iso(read.frame.fromMs),
      to: iso(read.frame.toMs),
      selector: query.selectorText,
      total: { accountedMs, spentMs, fractions },
      schedulers: read.schedulers,
    });
  } catch (error) {
    return unreadableResult(error);
  }
}

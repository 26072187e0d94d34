/**
 * The health rollup read behind the strips (./strips.ts): for a set of
 * schedulers and a window, what the rollup (health_changes,
 * health_observed_minutes; written by the alert evaluator) says — never a
 * progress report.
 *
 * Guarantees: ONE statement; bounded by indexes: per scheduler one probe of
 * (name, at) for the health carried into the window, and the changes inside
 * the window through the same key, aggregated per cell in the database (at
 * most schedulers × cells rows come back, however often a scheduler
 * flapped); the observed minutes of the window (≤ 10,080 for 7 d). The
 * schedulers are `names` when given, else every scheduler whose name
 * contains `q` (registrations and leases). Times are epoch ms of the
 * database clock.
 */
import type { Health } from '../../status/types';
import { HEALTH_SEVERITY } from '../../status';
import type { CellChanges } from '../../status';
import type { Queryable } from '../live/facts';
import { toIso as iso } from '../../status/time';

export const STRIP_ROLLUP_SQL = `
WITH n AS MATERIALIZED (
    SELECT DISTINCT u.name FROM unnest($1::text[]) AS u(name) WHERE $1::text[] IS NOT NULL
    UNION ALL
    SELECT a.name FROM (SELECT name FROM schedulers UNION SELECT name FROM leases) a
      WHERE $1::text[] IS NULL AND ($2::text IS NULL OR strpos(lower(a.name), $2::text) > 0)
  ),
  heads AS (
    SELECT n.name,
      (SELECT ceil(extract(epoch FROM s.first_registered_at) * 1000) FROM schedulers s WHERE s.name = n.name)::float8 AS born_ms,
      c.health AS carried, (extract(epoch FROM c.at) * 1000)::float8 AS carried_ms
    FROM n LEFT JOIN LATERAL (
      SELECT h.health, h.at FROM health_changes h WHERE h.name = n.name AND h.at <= $3 ORDER BY h.at DESC LIMIT 1
    ) c ON true
  ),
  inside AS (
    SELECT h.name, floor(extract(epoch FROM h.at - $3::timestamptz) * 1000 / $5::float8)::int AS cell, h.at, h.health,
      array_position($6::text[], h.health) AS rank
    FROM n JOIN health_changes h ON h.name = n.name AND h.at > $3 AND h.at <= $4
  ),
  cells AS (
    SELECT name, cell,
      (array_agg(health ORDER BY rank, at))[1] AS worst,
      (extract(epoch FROM (array_agg(at ORDER BY rank, at))[1]) * 1000)::float8 AS worst_at_ms,
      (array_agg(health ORDER BY at DESC))[1] AS last
    FROM inside GROUP BY name, cell
  )
SELECT
  (SELECT COALESCE(json_agg(heads), '[]') FROM heads) AS heads,
  (SELECT COALESCE(json_agg(cells ORDER BY name, cell), '[]') FROM cells) AS cells,
  (SELECT COALESCE(json_agg((extract(epoch FROM m.minute) * 1000)::float8), '[]') FROM health_observed_minutes m
     WHERE m.minute >= date_trunc('minute', $3::timestamptz) AND m.minute <= $4) AS observed`;

export interface RollupHead {
  name: string;
  bornMs: number | null;
  carried: { health: Health; atMs: number } | null;
  changes: CellChanges[];
}

export interface RollupRead {
  heads: RollupHead[];
  observedMinutes: Set<number>;
}

export interface RollupQuery {
  /** These schedulers (deduplicated), or null: every scheduler whose name contains `q`. */
  names: readonly string[] | null;
  /** Lower-cased name substring (null: any); only without `names`. */
  q: string | null;
  fromMs: number;
  toMs: number;
  cellMs: number;
}

interface HeadRow {
  name: string;
  born_ms: number | null;
  carried: Health | null;
  carried_ms: number | null;
}
interface CellRow {
  name: string;
  cell: number;
  worst: Health;
  worst_at_ms: number;
  last: Health;
}

export async function readStripRollup(db: Queryable, q: RollupQuery): Promise<RollupRead> {
  const { rows } = await db.query({
    name: 'strip_rollup',
    text: STRIP_ROLLUP_SQL,
    values: [q.names, q.names === null ? q.q : null, iso(q.fromMs), iso(q.toMs), q.cellMs, HEALTH_SEVERITY],
  });
  const r = rows[0] as { heads: HeadRow[]; cells: CellRow[]; observed: number[] };
  const changes = new Map<string, CellChanges[]>();
  for (const c of r.cells) {
    let list = changes.get(c.name);
    if (list === undefined) changes.set(c.name, (list = []));
    list.push({ cell: c.cell, worst: c.worst, worstAtMs: c.worst_at_ms, last: c.last });
  }
  return {
    heads: r.heads.map((h) => ({
      name: h.name,
      bornMs: h.born_ms,
      carried: h.carried === null || h.carried_ms === null ? null : { health: h.carried, atMs: h.carried_ms },
      changes: changes.get(h.name) ?? [],
    })),
    observedMinutes: new Set(r.observed),
  };
}

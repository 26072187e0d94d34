/**
 * The health rollup read behind the strips (./strips.ts): for a set of
 * schedulers and a window, what the rollup (health_changes,
 * health_observed_minutes; written by the alert evaluator) says — never a
 * progress report.
 *
 * Two reads: the strips of named schedulers (STRIP_ROLLUP_SQL) and, for
 * ranking every scheduler, one summary row each (STRIP_RANK_SQL).
 *
 * Guarantees: ONE statement each; the named read is bounded by indexes: per scheduler one probe of
 * (name, at) for the health carried into the window, and the changes inside
 * the window through the same key, aggregated per cell in the database (at
 * most schedulers × cells rows come back, however often a scheduler
 * flapped; each cell one min and one max, no sort); the ranked read is
 * per scheduler at most eight index probes whatever the window or the churn
 * (the carried health, the first change inside, then for each health in
 * severity order "any change of it inside?" on (name, health, at), 0035) —
 * never a scan of the window's changes; the observed minutes of the window
 * (≤ 10,080 for 7 d). The
 * schedulers are `names` when given, else every scheduler whose name
 * contains `q` (registrations and leases). Times are epoch ms of the
 * database clock.
 */
import type { Health } from '../../status/types';
import { HEALTH_SEVERITY } from '../../status';
import type { CellChanges } from '../../status';
import type { Queryable } from '../live/facts';
import { toIso as iso } from '../../status/time';

/** The window's observed minutes as a JSON array of epoch ms; `from` and `to` are the statement's parameters. */
const observedMinutes = (from: string, to: string) => `(SELECT COALESCE(json_agg(date_part('epoch', m.minute) * 1000), '[]') FROM health_observed_minutes m
     WHERE m.minute >= date_trunc('minute', ${from}::timestamptz) AND m.minute <= ${to}) AS observed`;

/**
 * A cell's worst change and its last, each ONE plain min/max over bigint keys (no sort per cell): the
 * worst is min(severity × WORST_KEY + µs after the window's start) — worst severity, then earliest;
 * the last is max(µs × 8 + severity). Exact while a window is shorter than WORST_KEY µs (31 years).
 */
const WORST_KEY = '1000000000000000';

export const STRIP_ROLLUP_SQL = `
WITH n AS MATERIALIZED (
    SELECT DISTINCT u.name FROM unnest($1::text[]) AS u(name) WHERE $1::text[] IS NOT NULL
    UNION ALL
    SELECT a.name FROM (SELECT name FROM schedulers UNION SELECT name FROM leases) a
      WHERE $1::text[] IS NULL AND ($2::text IS NULL OR strpos(lower(a.name), $2::text) > 0)
  ),
  heads AS (
    SELECT n.name,
      (SELECT ceil(date_part('epoch', s.first_registered_at) * 1000) FROM schedulers s WHERE s.name = n.name) AS born_ms,
      c.health AS carried, date_part('epoch', c.at) * 1000 AS carried_ms
    FROM n LEFT JOIN LATERAL (
      SELECT h.health, h.at FROM health_changes h WHERE h.name = n.name AND h.at <= $3 ORDER BY h.at DESC LIMIT 1
    ) c ON true
  ),
  inside AS (
    SELECT h.name, floor(date_part('epoch', h.at - $3::timestamptz) * 1000 / $5::float8)::int AS cell,
      round(date_part('epoch', h.at - $3::timestamptz) * 1000000)::bigint AS us, array_position($6::text[], h.health) AS rank
    FROM n JOIN health_changes h ON h.name = n.name AND h.at > $3 AND h.at <= $4
  ),
  keyed AS (
    SELECT name, cell, min(rank * ${WORST_KEY} + us) AS worst_key, max(us * 8 + rank) AS last_key FROM inside GROUP BY name, cell
  ),
  cells AS (
    SELECT name, cell, ($6::text[])[worst_key / ${WORST_KEY}] AS worst,
      date_part('epoch', $3::timestamptz + (worst_key % ${WORST_KEY}) * interval '1 microsecond') * 1000 AS worst_at_ms,
      ($6::text[])[last_key % 8] AS last
    FROM keyed
  )
SELECT
  (SELECT COALESCE(json_agg(heads), '[]') FROM heads) AS heads,
  (SELECT COALESCE(json_agg(cells ORDER BY name, cell), '[]') FROM cells) AS cells,
  ${observedMinutes('$3', '$4')}`;

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
  // Unnamed: planned with the window's real bounds each time (a generic plan cannot tell an hour from a week).
  const { rows } = await db.query({
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

/**
 * The ranked read's statement: per scheduler whose name contains $1 (null: any), its first
 * registration, the health carried into the window and the worst change inside it with the first
 * change's instant — one row each, never a cell; and the observed minutes of the window.
 * $2 from, $3 to, $4 the severity order.
 */
export const STRIP_RANK_SQL = `
WITH n AS MATERIALIZED (
    SELECT a.name FROM (SELECT name FROM schedulers UNION SELECT name FROM leases) a
    WHERE $1::text IS NULL OR strpos(lower(a.name), $1::text) > 0
  ),
  heads AS (
    SELECT n.name,
      (SELECT ceil(date_part('epoch', s.first_registered_at) * 1000) FROM schedulers s WHERE s.name = n.name) AS born_ms,
      c.health AS carried, date_part('epoch', c.at) * 1000 AS carried_ms,
      w.health AS inside_worst, date_part('epoch', f.at) * 1000 AS first_ms
    FROM n
    LEFT JOIN LATERAL (SELECT h.health, h.at FROM health_changes h WHERE h.name = n.name AND h.at <= $2 ORDER BY h.at DESC LIMIT 1) c ON true
    LEFT JOIN LATERAL (SELECT h.at FROM health_changes h WHERE h.name = n.name AND h.at > $2 AND h.at <= $3 ORDER BY h.at LIMIT 1) f ON true
    LEFT JOIN LATERAL (
      SELECT s.health FROM unnest($4::text[]) WITH ORDINALITY AS s(health, severity)
      WHERE f.at IS NOT NULL AND EXISTS (
        SELECT 1 FROM health_changes h WHERE h.name = n.name AND h.health = s.health AND h.at > $2 AND h.at <= $3)
      ORDER BY s.severity LIMIT 1
    ) w ON true
  )
SELECT
  (SELECT COALESCE(json_agg(heads), '[]') FROM heads) AS heads,
  ${observedMinutes('$2', '$3')}`;

export interface RankHead extends Omit<RollupHead, 'changes'> {
  inside: { worst: Health; firstAtMs: number } | null;
}

interface RankRow {
  name: string;
  born_ms: number | null;
  carried: Health | null;
  carried_ms: number | null;
  inside_worst: Health | null;
  first_ms: number | null;
}

/** Every scheduler whose name contains `q` (lower-cased; null: any), summarised for ranking over [fromMs, toMs]. */
export async function readStripRanks(
  db: Queryable,
  q: string | null,
  fromMs: number,
  toMs: number,
): Promise<{ heads: RankHead[]; observedMinutes: Set<number> }> {
  const { rows } = await db.query({ text: STRIP_RANK_SQL, values: [q, iso(fromMs), iso(toMs), HEALTH_SEVERITY] });
  const r = rows[0] as { heads: RankRow[]; observed: number[] };
  return {
    heads: r.heads.map((h) => ({
      name: h.name,
      bornMs: h.born_ms,
      carried: h.carried === null || h.carried_ms === null ? null : { health: h.carried, atMs: h.carried_ms },
      inside: h.inside_worst === null || h.first_ms === null ? null : { worst: h.inside_worst, firstAtMs: h.first_ms },
    })),
    observedMinutes: new Set(r.observed),
  };
}

-- Run now (run_requests, lib/actions/run-now.ts): an operator's request that the current holder start an
-- occurrence now; each row is its own audit (never pruned, a row per request, human speed).
CREATE TABLE "run_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"requested_at" timestamp(6) with time zone NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"holder" text NOT NULL,
	"epoch" bigint NOT NULL,
	"by" text NOT NULL,
	"identified_by" text NOT NULL,
	"reason" text NOT NULL,
	"taken_at" timestamp(6) with time zone,
	"taken_epoch" bigint,
	"occurrence" text
);
--> statement-breakpoint
CREATE INDEX "run_requests_lease_requested_at" ON "run_requests" USING btree ("lease","requested_at");--> statement-breakpoint
CREATE INDEX "run_requests_requested_at" ON "run_requests" USING btree ("requested_at");
--> statement-breakpoint
-- Reliability reports (lib/server/asof/reliability.ts): the time each scheduler spent in each health over
-- 24 h, 7 d and 30 d, from the health rollup (health_changes, health_observed_minutes: what the alert
-- evaluator judged, never a report). A 30-day report over 10,000 schedulers cannot walk every change
-- (96 a day each at the size model's churn: 28.8 million rows), and health_changes is kept only as long as
-- progress reports (7 days by default); so the retention pruner folds each UTC hour, once over for 5 minutes,
-- into one row per scheduler (health_hours), and each UTC day, once over for an hour, into one row per
-- scheduler (health_days, from its 24 hours). A report reads days for its whole days, hours for the whole
-- hours left, and the changes only for the partial hours at its ends.
-- Bounded: one row per scheduler and UTC day, deleted past 32 days (the longest report is 30 days): at most
-- 33 rows a scheduler; one row per scheduler and hour, deleted past 3 days: at most 73 rows a scheduler.
CREATE TABLE "health_days" (
	"name" text NOT NULL,
	"day" timestamp(6) with time zone NOT NULL,
	"progressing_ms" bigint NOT NULL,
	"idle_ms" bigint NOT NULL,
	"stalled_ms" bigint NOT NULL,
	"no_leader_ms" bigint NOT NULL,
	"unknown_ms" bigint NOT NULL,
	"disabled_ms" bigint NOT NULL,
	CONSTRAINT "health_days_name_day_pk" PRIMARY KEY("name","day")
);
--> statement-breakpoint
CREATE TABLE "health_hours" (
	"name" text NOT NULL,
	"hour" timestamp(6) with time zone NOT NULL,
	"progressing_ms" bigint NOT NULL,
	"idle_ms" bigint NOT NULL,
	"stalled_ms" bigint NOT NULL,
	"no_leader_ms" bigint NOT NULL,
	"unknown_ms" bigint NOT NULL,
	"disabled_ms" bigint NOT NULL,
	CONSTRAINT "health_hours_name_hour_pk" PRIMARY KEY("name","hour")
);
--> statement-breakpoint
CREATE INDEX "health_days_day" ON "health_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "health_hours_hour" ON "health_hours" USING btree ("hour");
--> statement-breakpoint
SELECT leaseboard_fence_deletes('health_days');--> statement-breakpoint
SELECT leaseboard_fence_deletes('health_hours');--> statement-breakpoint

-- Milliseconds each scheduler (p_names, or every one when NULL) spent in each health over [p_from, p_to):
-- from its first registration or p_from, whichever is later, the health carried into the span and every
-- change inside it, each lasting until the next. Time nobody judged counts as unknown, never as the health
-- around it: a minute with no evaluator round (no health_observed_minutes row — also every minute the
-- retention dropped), and the time before a scheduler's first recorded health. The sum per scheduler is
-- exactly the span it existed in. Reads only; the fold below and the reports share it.
CREATE FUNCTION leaseboard_health_spent(p_names text[], p_from timestamptz, p_to timestamptz)
RETURNS TABLE (name text, health text, ms bigint)
-- jit off: the planner's estimates for these joins pass jit_above_cost, and compiling cost more than the
-- query itself (seconds on a loaded 2-core machine, for a read of milliseconds); it also keeps the
-- function from being inlined into a report, whose own cost then stays small.
LANGUAGE sql STABLE SET jit = off AS $fn$
WITH n AS MATERIALIZED (
    SELECT s.name, greatest(p_from, s.first_registered_at) AS start FROM schedulers s
    WHERE (p_names IS NULL OR s.name = ANY (p_names)) AND s.first_registered_at < p_to AND p_from < p_to
  ),
  points AS (
    SELECT n.name, n.start AS at, coalesce(c.health, 'unknown') AS health
    FROM n LEFT JOIN LATERAL (
      SELECT h.health FROM health_changes h WHERE h.name = n.name AND h.at <= n.start ORDER BY h.at DESC LIMIT 1
    ) c ON true
    UNION ALL
    SELECT h.name, h.at, h.health FROM n JOIN health_changes h ON h.name = n.name AND h.at > n.start AND h.at < p_to
  ),
  spans AS (
    SELECT p.name, p.health, p.at AS s, coalesce(lead(p.at) OVER (PARTITION BY p.name ORDER BY p.at), p_to) AS e FROM points p
  ),
  blind AS MATERIALIZED (
    SELECT min(x.m) AS s, max(x.m) + interval '1 minute' AS e
    FROM (
      SELECT g.m, g.m - (row_number() OVER (ORDER BY g.m)) * interval '1 minute' AS run
      FROM generate_series(date_trunc('minute', p_from), p_to, interval '1 minute') AS g(m)
      WHERE g.m < p_to AND NOT EXISTS (SELECT 1 FROM health_observed_minutes o WHERE o.minute = g.m)
    ) x
    GROUP BY x.run
  ),
  cut AS (
    SELECT sp.name, sp.health, sp.s, sp.e, coalesce(u.unseen, interval '0') AS unseen
    FROM spans sp LEFT JOIN LATERAL (
      SELECT sum(least(sp.e, b.e) - greatest(sp.s, b.s)) AS unseen FROM blind b WHERE b.s < sp.e AND b.e > sp.s
    ) u ON true
  )
SELECT c.name, u.health, sum(u.ms)::bigint
FROM cut c
CROSS JOIN LATERAL (VALUES
  (c.health, round(extract(epoch FROM c.e - c.s - c.unseen) * 1000)),
  ('unknown', round(extract(epoch FROM c.unseen) * 1000))) AS u(health, ms)
WHERE u.ms > 0
GROUP BY c.name, u.health
$fn$;
--> statement-breakpoint

-- What a fold may take now, oldest first: UTC hours over for 5 minutes (a round commits at the fence's
-- time, seconds at most behind), not older than 2 days nor before the rollup's oldest observed minute;
-- then UTC days over for an hour, not older than 31 days nor before that minute. Only spans some
-- scheduler existed in (registered before the end), and not folded yet.
CREATE VIEW health_rollup_foldable AS
SELECT 'hour'::text AS kind, h.at FROM generate_series(
    date_trunc('hour', greatest((SELECT min(o.minute) FROM health_observed_minutes o), now() - interval '2 days'), 'UTC'),
    date_trunc('hour', now() - interval '5 minutes', 'UTC') - interval '1 hour',
    interval '1 hour') AS h(at)
WHERE EXISTS (SELECT 1 FROM schedulers s WHERE s.first_registered_at < h.at + interval '1 hour')
  AND NOT EXISTS (SELECT 1 FROM health_hours x WHERE x.hour = h.at)
UNION ALL
SELECT 'day'::text AS kind, d.at FROM generate_series(
    date_trunc('day', greatest((SELECT min(o.minute) FROM health_observed_minutes o), now() - interval '31 days'), 'UTC'),
    date_trunc('day', now() - interval '1 hour', 'UTC') - interval '1 day',
    interval '1 day') AS d(at)
WHERE EXISTS (SELECT 1 FROM schedulers s WHERE s.first_registered_at < d.at + interval '1 day')
  AND NOT EXISTS (SELECT 1 FROM health_days x WHERE x.day = d.at);
--> statement-breakpoint

-- Folds the oldest foldable hour, else the oldest foldable day (one statement each, whatever its size:
-- p_batch, the pruner's batch of rows, does not apply), fenced first by the pruner's lease; drops hours
-- past 3 days and days past 32. A day whose 24 hours are folded is their sum; an older one (before the
-- hours were kept) is read from the changes. Returns the rows folded.
CREATE FUNCTION leaseboard_fold_health_rollup(p_lease text, p_epoch bigint, p_batch integer) RETURNS integer
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  v_kind text;
  v_at timestamptz;
  folded integer;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'health_changes');
  SELECT f.kind, f.at INTO v_kind, v_at FROM health_rollup_foldable f ORDER BY f.kind DESC, f.at LIMIT 1;
  IF v_at IS NULL THEN
    RETURN 0;
  END IF;
  IF v_kind = 'hour' THEN
    INSERT INTO health_hours (name, hour, progressing_ms, idle_ms, stalled_ms, no_leader_ms, unknown_ms, disabled_ms)
    SELECT s.name, v_at,
      coalesce(sum(s.ms) FILTER (WHERE s.health = 'progressing'), 0), coalesce(sum(s.ms) FILTER (WHERE s.health = 'idle'), 0),
      coalesce(sum(s.ms) FILTER (WHERE s.health = 'stalled'), 0), coalesce(sum(s.ms) FILTER (WHERE s.health = 'no_leader'), 0),
      coalesce(sum(s.ms) FILTER (WHERE s.health = 'unknown'), 0), coalesce(sum(s.ms) FILTER (WHERE s.health = 'disabled'), 0)
    FROM leaseboard_health_spent(NULL, v_at, v_at + interval '1 hour') s
    GROUP BY s.name
    ON CONFLICT (name, hour) DO NOTHING;
    GET DIAGNOSTICS folded = ROW_COUNT;
    DELETE FROM health_hours WHERE hour < v_at - interval '3 days';
    RETURN folded;
  END IF;
  IF (SELECT count(DISTINCT x.hour) FROM health_hours x WHERE x.hour >= v_at AND x.hour < v_at + interval '1 day') = 24 THEN
    INSERT INTO health_days (name, day, progressing_ms, idle_ms, stalled_ms, no_leader_ms, unknown_ms, disabled_ms)
    SELECT x.name, v_at, sum(x.progressing_ms), sum(x.idle_ms), sum(x.stalled_ms), sum(x.no_leader_ms), sum(x.unknown_ms), sum(x.disabled_ms)
    FROM health_hours x WHERE x.hour >= v_at AND x.hour < v_at + interval '1 day'
    GROUP BY x.name
    ON CONFLICT (name, day) DO NOTHING;
  ELSE
    INSERT INTO health_days (name, day, progressing_ms, idle_ms, stalled_ms, no_leader_ms, unknown_ms, disabled_ms)
    SELECT s.name, v_at,
      coalesce(sum(s.ms) FILTER (WHERE s.health = 'progressing'), 0), coalesce(sum(s.ms) FILTER (WHERE s.health = 'idle'), 0),
      coalesce(sum(s.ms) FILTER (WHERE s.health = 'stalled'), 0), coalesce(sum(s.ms) FILTER (WHERE s.health = 'no_leader'), 0),
      coalesce(sum(s.ms) FILTER (WHERE s.health = 'unknown'), 0), coalesce(sum(s.ms) FILTER (WHERE s.health = 'disabled'), 0)
    FROM leaseboard_health_spent(NULL, v_at, v_at + interval '1 day') s
    GROUP BY s.name
    ON CONFLICT (name, day) DO NOTHING;
  END IF;
  GET DIAGNOSTICS folded = ROW_COUNT;
  DELETE FROM health_days WHERE day < v_at - interval '32 days';
  RETURN folded;
END $$;

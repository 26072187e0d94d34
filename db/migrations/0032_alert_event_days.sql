-- Bounded: one row per scheduler and UTC day of folded transitions; the pruner deletes a day once all of it is
-- past LEASEBOARD_RETAIN_ALERT_EVENTS (30 days by default): at most 31 rows per scheduler.
-- Alert transitions a day to a row (issue 21): a row per transition (221 bytes with its indexes: 1.5 GB
-- for 10,000 schedulers at an assumed 24 a day over 30 days) becomes, for the days that are over, one
-- row per scheduler and UTC day whose arrays hold that day's transitions, slot i one transition: its id,
-- rule, its two states and mode in one small number (kinds[i], leaseboard_alert_kind), and its instant
-- at_us[i] µs after the day. Only the logs read behind `?at=`
-- and history reads old transitions (lib/server/asof/logs-sql.ts: each rule's last at or before an
-- instant, and those in a span, by (at, id)); the live alert state is alert_state. The writer's fence
-- columns (lease, epoch) are not kept: nobody reads them once written. Transitions of no scheduler
-- (a rule's own) stay rows.
-- Guarantees: the pruner folds in ONE statement per batch (deleted from alert_events, merged into their
-- day), fenced like every prune (leaseboard_fence first; alert_events' delete trigger checks it again);
-- a day is folded once it has been over for an hour, so a transition committed late still lands in a
-- row first and is merged into its day at the next round.
CREATE TABLE "alert_event_days" (
	"scheduler" text NOT NULL,
	"day" timestamp(6) with time zone NOT NULL,
	"ids" bigint[] NOT NULL,
	"rules" text[] NOT NULL,
	"kinds" smallint[] NOT NULL,
	"at_us" bigint[] NOT NULL,
	CONSTRAINT "alert_event_days_scheduler_day_pk" PRIMARY KEY("scheduler","day")
);
--> statement-breakpoint
CREATE INDEX "alert_event_days_day" ON "alert_event_days" USING btree ("day");--> statement-breakpoint

-- A transition's states and mode as one number: from × 16 + to × 4 + mode, each its place (0-based) in
-- the lists below (db/schema.ts: ALERT_STATE_KINDS, ALERT_MODE_NAMES); NULL for a name not listed, and
-- such a transition is never folded. leaseboard_alert_kind_names reads it back.
CREATE FUNCTION leaseboard_alert_kind(p_from text, p_to text, p_mode text) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((array_position(ARRAY['inactive', 'pending', 'firing', 'resolved'], p_from) - 1) * 16
        + (array_position(ARRAY['inactive', 'pending', 'firing', 'resolved'], p_to) - 1) * 4
        + (array_position(ARRAY['off', 'shadow', 'on'], p_mode) - 1))::smallint
$$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_alert_kind_names(p_kind smallint, OUT from_state text, OUT to_state text, OUT mode text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (ARRAY['inactive', 'pending', 'firing', 'resolved'])[p_kind / 16 + 1],
         (ARRAY['inactive', 'pending', 'firing', 'resolved'])[p_kind / 4 % 4 + 1],
         (ARRAY['off', 'shadow', 'on'])[p_kind % 4 + 1]
$$;
--> statement-breakpoint
SELECT leaseboard_fence_deletes('alert_event_days');--> statement-breakpoint

-- The transitions a fold may take now (row_ctid: which row).
CREATE VIEW alert_events_foldable AS
SELECT a.ctid AS row_ctid FROM alert_events a
WHERE a.scheduler IS NOT NULL AND a.at < date_trunc('day', now() - interval '1 hour', 'UTC')
  AND leaseboard_alert_kind(a.from_state, a.to_state, a.mode) IS NOT NULL;
--> statement-breakpoint

CREATE FUNCTION leaseboard_fold_alert_events(p_lease text, p_epoch bigint, p_batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'alert_events');
  WITH moved AS (
    DELETE FROM alert_events a WHERE a.ctid = ANY (ARRAY(SELECT f.row_ctid FROM alert_events_foldable f LIMIT p_batch))
    RETURNING a.id, a.rule, a.scheduler, a.from_state, a.to_state, a.mode, a.at, date_trunc('day', a.at, 'UTC') AS day
  ), packed AS (
    SELECT scheduler, day, array_agg(id ORDER BY at, id) AS ids, array_agg(rule ORDER BY at, id) AS rules,
           array_agg(leaseboard_alert_kind(from_state, to_state, mode) ORDER BY at, id) AS kinds,
           array_agg((extract(epoch FROM at - day) * 1000000)::bigint ORDER BY at, id) AS at_us, count(*) AS n
    FROM moved GROUP BY scheduler, day
  ), merged AS (
    INSERT INTO alert_event_days AS d (scheduler, day, ids, rules, kinds, at_us)
    SELECT scheduler, day, ids, rules, kinds, at_us FROM packed
    ON CONFLICT (scheduler, day) DO UPDATE
      SET ids = d.ids || excluded.ids, rules = d.rules || excluded.rules, kinds = d.kinds || excluded.kinds,
          at_us = d.at_us || excluded.at_us
  )
  SELECT coalesce(sum(n), 0)::int INTO folded FROM packed;
  RETURN folded;
END $$;

-- The product schema as every migration in db/migrations leaves it (schema public): tables, views,
-- sequences, constraints, indexes, triggers and the protocol functions. Generated from the catalog
-- of a freshly migrated database by `npm run db:schema` (db/schema-dump.ts); do not edit by hand.
-- No owners, privileges or roles: db/roles.ts makes those, under the names configured.

-- Functions

CREATE OR REPLACE FUNCTION public.leaseboard_acquire(p_name text, p_holder text, p_label text, p_ttl_ms integer)
 RETURNS TABLE(granted boolean, epoch bigint, expires_at timestamp with time zone, holder text, live boolean, disabled boolean, disabled_by text, disabled_reason text)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS (SELECT clock_timestamp() AS now, leaseboard_generation() AS generation),
  intent AS (SELECT disabled, by, reason FROM scheduler_intents WHERE lease = $1 AND disabled),
  latest AS (SELECT epoch, holder, expires_at, released_at FROM leases WHERE name = $1 FOR SHARE),
  done AS (
    INSERT INTO leases AS l (name, holder, holder_label, epoch, acquired_at, renewed_at, expires_at, ttl_ms)
    SELECT $1, $2, $3, leaseboard_epoch_after(NULL, c.generation), c.now, c.now, c.now + $4::int * interval '1 millisecond', $4::int FROM c
    WHERE NOT EXISTS (SELECT 1 FROM intent)
    ON CONFLICT (name) DO UPDATE SET
      holder = excluded.holder, holder_label = excluded.holder_label, epoch = leaseboard_epoch_after(l.epoch, excluded.epoch / 1000000000),
      acquired_at = excluded.acquired_at, renewed_at = excluded.renewed_at, expires_at = excluded.expires_at,
      ttl_ms = excluded.ttl_ms, released_at = NULL,
      -- SET sees the row version the lock was taken on, so these name the
      -- tenure this grant really ends, even if a competitor moved it since our snapshot.
      previous_epoch = l.epoch, previous_holder = l.holder, previous_ended_at = COALESCE(l.released_at, l.expires_at),
      previous_released = l.released_at IS NOT NULL, previous_renewed_at = l.renewed_at,
      gap_bucket = NULL, gap_bucket_max_ms = NULL, gap_bucket_renewals = NULL
    WHERE l.released_at IS NOT NULL OR l.expires_at <= excluded.acquired_at
    RETURNING l.epoch, l.acquired_at, l.expires_at, l.previous_epoch, l.previous_holder, l.previous_ended_at, l.previous_released,
              l.previous_renewed_at
  ),
  event AS (
    -- The first grant of a lease inserted its row: no previous epoch (the row's previous_* are null).
    INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at, previous_epoch, previous_holder, previous_ended_at, last_renewed_at)
    SELECT $1, CASE WHEN done.previous_epoch IS NULL OR done.previous_released THEN 'acquired' ELSE 'taken_over' END,
           done.epoch, $2, $3, done.acquired_at, done.previous_epoch, done.previous_holder, done.previous_ended_at,
           CASE WHEN done.previous_released THEN NULL ELSE done.previous_renewed_at END
    FROM done
  )
SELECT true AS granted, done.epoch, done.expires_at, NULL::text AS holder, NULL::boolean AS live,
       NULL::boolean AS disabled, NULL::text AS disabled_by, NULL::text AS disabled_reason
FROM done
UNION ALL
SELECT false, latest.epoch, latest.expires_at, latest.holder,
       latest.released_at IS NULL AND latest.expires_at > (SELECT now FROM c),
       intent.disabled, intent.by, intent.reason
FROM c LEFT JOIN latest ON true LEFT JOIN intent ON true
WHERE NOT EXISTS (SELECT 1 FROM done);
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_alert_kind(p_from text, p_to text, p_mode text)
 RETURNS smallint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT ((array_position(ARRAY['inactive', 'pending', 'firing', 'resolved'], p_from) - 1) * 16
        + (array_position(ARRAY['inactive', 'pending', 'firing', 'resolved'], p_to) - 1) * 4
        + (array_position(ARRAY['off', 'shadow', 'on'], p_mode) - 1))::smallint
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_alert_kind_names(p_kind smallint, OUT from_state text, OUT to_state text, OUT mode text)
 RETURNS record
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT (ARRAY['inactive', 'pending', 'firing', 'resolved'])[p_kind / 16 + 1],
         (ARRAY['inactive', 'pending', 'firing', 'resolved'])[p_kind / 4 % 4 + 1],
         (ARRAY['off', 'shadow', 'on'])[p_kind % 4 + 1]
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_align_generation()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  ahead bigint;
BEGIN
  IF pg_is_in_recovery() THEN
    RETURN NULL;
  END IF;
  SELECT max(epoch) / 1000000000 - leaseboard_generation() INTO ahead FROM leases;
  IF ahead > 0 THEN
    UPDATE leaseboard_generation_base SET base = base + ahead;
  END IF;
  RETURN leaseboard_generation();
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_epoch_after(previous bigint, generation bigint)
 RETURNS bigint
 LANGUAGE sql
AS $function$
  SELECT CASE
    WHEN previous IS NULL OR previous / 1000000000 < generation THEN generation * 1000000000 + 1
    WHEN previous / 1000000000 > generation OR previous % 1000000000 = 999999999 THEN leaseboard_epoch_refused(previous, generation)
    ELSE previous + 1
  END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_epoch_refused(previous bigint, generation bigint)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF previous / 1000000000 > generation THEN
    RAISE EXCEPTION 'leaseboard epoch: epoch % is of generation %, after this database''s generation %: run the migrator (leaseboard_align_generation)',
      previous, previous / 1000000000, generation USING ERRCODE = 'LB003';
  END IF;
  RAISE EXCEPTION 'leaseboard epoch: generation % has no epoch left after %', generation, previous USING ERRCODE = 'LB003';
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fence(p_lease text, p_epoch bigint, p_resource text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
AS $function$
DECLARE
  at timestamptz := leaseboard_fence_check(p_lease, p_epoch, p_resource);
BEGIN
  PERFORM set_config('leaseboard.fence', json_build_object('lease', p_lease, 'epoch', p_epoch)::text, true);
  RETURN at;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fence_check(p_lease text, p_epoch bigint, p_resource text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
AS $function$
DECLARE
  cur record;
  found_lease boolean;
  now timestamptz;
  reason text;
BEGIN
  SELECT l.epoch, l.released_at, l.expires_at INTO cur FROM leases l WHERE l.name = p_lease FOR SHARE;
  found_lease := FOUND;
  now := clock_timestamp();
  IF NOT found_lease THEN reason := 'no_lease';
  ELSIF p_epoch IS NULL OR cur.epoch <> p_epoch THEN reason := 'stale_epoch';
  ELSIF cur.released_at IS NOT NULL THEN reason := 'released';
  ELSIF cur.expires_at <= now THEN reason := 'expired';
  END IF;
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION 'leaseboard fence: % write to % refused (%, epoch %)', reason, p_resource, coalesce(p_lease, 'no lease'), coalesce(p_epoch::text, 'none')
      USING ERRCODE = 'LB001',
            DETAIL = json_build_object('reason', reason, 'lease', p_lease, 'attemptedEpoch', p_epoch,
                                       'currentEpoch', CASE WHEN found_lease THEN cur.epoch END,
                                       'resource', p_resource, 'at', now)::text;
  END IF;
  RETURN now;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fence_deletes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  noted text := current_setting('leaseboard.fence', true);
  f json;
BEGIN
  IF noted IS NULL OR noted = '' THEN
    RAISE EXCEPTION 'leaseboard fence: % on % needs a fence: call leaseboard_fence(lease, epoch, resource) in the same transaction', TG_OP, TG_TABLE_NAME
      USING ERRCODE = 'LB002';
  END IF;
  f := noted::json;
  PERFORM leaseboard_fence_check(f->>'lease', (f->>'epoch')::bigint, TG_TABLE_NAME::text);
  RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fence_deletes(t regclass)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_delete AFTER DELETE ON %s FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_deletes()', t);
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_deletes()', t);
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fence_rows()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  f record;
BEGIN
  FOR f IN SELECT DISTINCT r.lease, r.epoch FROM fenced_rows r LOOP
    PERFORM leaseboard_fence_check(f.lease, f.epoch, TG_TABLE_NAME::text);
  END LOOP;
  RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fence_table(t regclass)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = t AND NOT a.attisdropped AND a.attnotnull
        AND ((a.attname = 'lease' AND a.atttypid = 'text'::regtype) OR (a.attname = 'epoch' AND a.atttypid = 'bigint'::regtype))) <> 2 THEN
    RAISE EXCEPTION 'leaseboard fence: % needs the columns lease text NOT NULL and epoch bigint NOT NULL', t;
  END IF;
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_rows()', t);
  EXECUTE format('CREATE OR REPLACE TRIGGER leaseboard_fence_update AFTER UPDATE ON %s REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_fence_rows()', t);
  PERFORM leaseboard_fence_deletes(t);
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_flush_renewal_gap()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  slot int := leaseboard_gap_slot(OLD.gap_bucket);
  gaps int[] := array_fill(NULL::int, ARRAY[60]);
BEGIN
  gaps[slot] := OLD.gap_bucket_max_ms;
  INSERT INTO renewal_gap_hours AS h (lease, epoch, hour, max_gap_ms, renewals)
  VALUES (OLD.name, OLD.epoch, leaseboard_gap_hour(OLD.gap_bucket), gaps, OLD.gap_bucket_renewals)
  ON CONFLICT (lease, hour, epoch) DO UPDATE
    SET max_gap_ms[slot] = GREATEST(h.max_gap_ms[slot], excluded.max_gap_ms[slot]),
        renewals = h.renewals + excluded.renewals;
  RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fold_alert_events(p_lease text, p_epoch bigint, p_batch integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fold_health_rollup(p_lease text, p_epoch bigint, p_batch integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
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
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fold_lease_events(p_lease text, p_epoch bigint, p_batch integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  folded integer;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'lease_events');
  WITH moved AS (
    DELETE FROM lease_events e WHERE e.ctid = ANY (ARRAY(SELECT f.row_ctid FROM lease_events_foldable f LIMIT p_batch))
    RETURNING e.id, e.lease, e.kind, e.epoch, e.holder, e.holder_label, e.at, e.previous_epoch, e.previous_ended_at,
              e.last_renewed_at, date_trunc('day', e.at, 'UTC') AS day
  ), packed AS (
    SELECT m.lease, m.day,
           array_agg(ARRAY[m.id,
                           (extract(epoch FROM m.at - m.day) * 1000000)::bigint * 4 + array_position(ARRAY['acquired', 'taken_over', 'released'], m.kind) - 1,
                           m.epoch, m.previous_epoch,
                           (extract(epoch FROM m.at - m.previous_ended_at) * 1000000)::bigint,
                           (extract(epoch FROM m.at - m.last_renewed_at) * 1000000)::bigint] ORDER BY m.at, m.id) AS nums,
           string_agg(m.holder, E'\x1f' ORDER BY m.at, m.id) AS holders,
           string_agg(COALESCE(m.holder_label, E'\x1e'), E'\x1f' ORDER BY m.at, m.id) AS labels,
           count(*) AS n
    FROM moved m GROUP BY m.lease, m.day
  ), merged AS (
    INSERT INTO lease_event_days AS d (lease, day, nums, holders, labels)
    SELECT lease, day, nums, holders, labels FROM packed
    ON CONFLICT (lease, day) DO UPDATE
      SET nums = d.nums || excluded.nums, holders = d.holders || E'\x1f' || excluded.holders,
          labels = d.labels || E'\x1f' || excluded.labels
  )
  SELECT coalesce(sum(n), 0)::int INTO folded FROM packed;
  RETURN folded;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_fold_occurrences(p_lease text, p_epoch bigint, p_batch integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  folded integer;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'occurrences');
  WITH moved AS (
    DELETE FROM occurrences o WHERE o.ctid = ANY (ARRAY(SELECT f.row_ctid FROM occurrences_foldable f LIMIT p_batch))
    RETURNING o.lease, leaseboard_gap_hour(o.scheduled_at) AS hour, o.scheduled_at, o.claimed_at, o.completed_at
  ), packed AS (
    SELECT lease, hour,
           array_agg((extract(epoch FROM scheduled_at - hour) * 1000)::int ORDER BY scheduled_at) AS scheduled_ms,
           array_agg((extract(epoch FROM claimed_at - scheduled_at) * 1000000)::bigint ORDER BY scheduled_at) AS claimed_us,
           array_agg((extract(epoch FROM completed_at - claimed_at) * 1000000)::bigint ORDER BY scheduled_at) AS ended_us,
           count(*) AS n
    FROM moved GROUP BY lease, hour
  ), merged AS (
    INSERT INTO occurrence_hours AS h (lease, hour, scheduled_ms, claimed_us, ended_us)
    SELECT lease, hour, scheduled_ms, claimed_us, ended_us FROM packed
    ON CONFLICT (lease, hour) DO UPDATE
      SET scheduled_ms = h.scheduled_ms || excluded.scheduled_ms,
          claimed_us = h.claimed_us || excluded.claimed_us,
          ended_us = h.ended_us || excluded.ended_us
  )
  SELECT coalesce(sum(n), 0)::int INTO folded FROM packed;
  RETURN folded;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_gap_hour(minute timestamp with time zone)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ SELECT date_trunc('hour', minute, 'UTC') $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_gap_slot(minute timestamp with time zone)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ SELECT floor(extract(epoch FROM minute - date_trunc('hour', minute, 'UTC')) / 60)::int + 1 $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_generation()
 RETURNS bigint
 LANGUAGE sql
AS $function$
  SELECT leaseboard_timeline() - 1 + coalesce((SELECT base FROM leaseboard_generation_base), 0)
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_health_spent(p_names text[], p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS TABLE(name text, health text, ms bigint)
 LANGUAGE sql
 STABLE
 SET jit TO 'off'
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_intent_audited()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- The row's own transaction must have appended its audit row (xmin: the transaction that wrote it).
  IF NOT EXISTS (
    SELECT 1 FROM intent_audit a
     WHERE a.lease = NEW.lease AND a.disabled = NEW.disabled AND a."by" = NEW."by" AND a.reason = NEW.reason
       AND a.xmin = pg_current_xact_id()::xid
  ) THEN
    RAISE EXCEPTION 'an intent change needs its intent_audit row in the same transaction (lease %)', NEW.lease
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_label_key_ok(p text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN strpos(p, '/') = 0 THEN leaseboard_label_name_ok(p)
    ELSE length(split_part(p, '/', 1)) BETWEEN 1 AND 253
      AND split_part(p, '/', 1) ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'
      AND leaseboard_label_name_ok(substr(p, strpos(p, '/') + 1)) END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_label_name_ok(p text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT length(p) BETWEEN 1 AND 63 AND p ~ '^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$'
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_label_value_ok(p text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT p = '' OR leaseboard_label_name_ok(p)
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_labels_ok(p jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT jsonb_typeof(p) = 'object'
    AND (SELECT count(*) FROM jsonb_object_keys(p)) <= 32
    AND NOT EXISTS (SELECT 1 FROM jsonb_each(p) e
                    WHERE jsonb_typeof(e.value) <> 'string'
                       OR NOT leaseboard_label_key_ok(e.key) OR NOT leaseboard_label_value_ok(e.value #>> '{}'))
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_lease_log(p_lease text, p_until timestamp with time zone)
 RETURNS TABLE(id bigint, kind text, epoch bigint, holder text, holder_label text, at timestamp with time zone, previous_epoch bigint, previous_ended_at timestamp with time zone, last_renewed_at timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT e.id, e.kind, e.epoch, e.holder, e.holder_label, e.at, e.previous_epoch, e.previous_ended_at, e.last_renewed_at
  FROM lease_events e WHERE e.lease = p_lease AND e.at <= p_until
  UNION ALL
  SELECT d.nums[i][1], (ARRAY['acquired', 'taken_over', 'released'])[d.nums[i][2] % 4 + 1], d.nums[i][3],
         h.holders[i], b.labels[i], u.at, d.nums[i][4],
         u.at - d.nums[i][5] * interval '1 microsecond', u.at - d.nums[i][6] * interval '1 microsecond'
  FROM lease_event_days d
  CROSS JOIN LATERAL (SELECT string_to_array(d.holders, E'\x1f') AS holders) h
  CROSS JOIN LATERAL (SELECT string_to_array(d.labels, E'\x1f', E'\x1e') AS labels) b
  CROSS JOIN LATERAL generate_series(1, array_length(d.nums, 1)) i
  CROSS JOIN LATERAL (SELECT d.day + (d.nums[i][2] / 4) * interval '1 microsecond' AS at) u
  WHERE d.lease = p_lease AND d.day <= p_until AND u.at <= p_until
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_next_epoch(previous bigint)
 RETURNS bigint
 LANGUAGE sql
AS $function$
  SELECT leaseboard_epoch_after(previous, leaseboard_generation())
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_register(p_name text, p_every_ms integer, p_report_every_ms integer, p_stall_after_ms integer, p_overdue_after_ms integer, p_labels jsonb DEFAULT '{}'::jsonb)
 RETURNS void
 LANGUAGE sql
AS $function$
WITH c AS (SELECT clock_timestamp() AS now)
INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at, labels)
SELECT $1, $2, $3, $4, $5, c.now, c.now, $6 FROM c
ON CONFLICT (name) DO UPDATE SET every_ms = excluded.every_ms, report_every_ms = excluded.report_every_ms,
  stall_after_ms = excluded.stall_after_ms, overdue_after_ms = excluded.overdue_after_ms, registered_at = excluded.registered_at,
  labels = excluded.labels
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_release(p_name text, p_holder text, p_epoch bigint)
 RETURNS TABLE(released_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS (SELECT clock_timestamp() AS now),
  done AS (
    UPDATE leases l SET released_at = c.now, expires_at = LEAST(l.expires_at, c.now),
      gap_bucket = NULL, gap_bucket_max_ms = NULL, gap_bucket_renewals = NULL, change_xid = pg_current_xact_id()
    FROM c
    WHERE l.name = $1 AND l.holder = $2 AND l.epoch = $3 AND l.released_at IS NULL AND l.expires_at > c.now
    RETURNING l.released_at, l.holder_label, l.renewed_at
  ),
  event AS (
    INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at, last_renewed_at)
    SELECT $1, 'released', $3, $2, done.holder_label, done.released_at, done.renewed_at FROM done
  )
SELECT released_at FROM done;
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_renew(p_name text, p_holder text, p_epoch bigint)
 RETURNS TABLE(renewed_at timestamp with time zone, expires_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT m.renewed_at, m.expires_at FROM leaseboard_renew_many(ARRAY[$1::text], ARRAY[$2::text], ARRAY[$3::bigint]) m;
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_renew_many(p_names text[], p_holders text[], p_epochs bigint[])
 RETURNS TABLE(i bigint, renewed_at timestamp with time zone, expires_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH c AS MATERIALIZED (SELECT clock_timestamp() AS now, date_trunc('minute', clock_timestamp()) AS minute),
  wanted AS (
    SELECT DISTINCT ON (u.name) u.name, u.holder, u.epoch, u.i
    FROM c, unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS u(name, holder, epoch, i)
    JOIN leases l ON l.name = u.name AND l.holder = u.holder AND l.epoch = u.epoch
    WHERE l.released_at IS NULL AND l.expires_at > c.now
    ORDER BY u.name, u.i
  ),
  renewed AS (
UPDATE leases l SET
  renewed_at = c.now,
  expires_at = c.now + l.ttl_ms * interval '1 millisecond',
  gap_bucket = c.minute,
  gap_bucket_max_ms = CASE WHEN l.gap_bucket = c.minute
    THEN GREATEST(l.gap_bucket_max_ms, (extract(epoch FROM c.now - l.renewed_at) * 1000)::int)
    ELSE (extract(epoch FROM c.now - l.renewed_at) * 1000)::int END,
  gap_bucket_renewals = CASE WHEN l.gap_bucket = c.minute THEN l.gap_bucket_renewals + 1 ELSE 1 END,
  -- A renewal moves only renewed_at and expires_at (and the gap rollup, which the status does not read): a touch.
  touch_xid = pg_current_xact_id()
FROM c, wanted r
WHERE l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > c.now
RETURNING r.i, l.renewed_at, l.expires_at
)
SELECT i, renewed_at, expires_at FROM renewed;
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_replication_state()
 RETURNS TABLE(in_recovery boolean, generation bigint, last_replay_at timestamp with time zone, caught_up boolean, receiving boolean, sync_standbys integer, async_standbys integer, hidden_standbys integer, standby_replay_lag_ms double precision, standby_lag_bytes double precision, synchronous_standby_names_set boolean, synchronous_commit text, now timestamp with time zone)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  WITH senders AS (
    SELECT state, sync_state, replay_lag, replay_lsn FROM pg_stat_replication
  ), quorum AS (
    SELECT substring(current_setting('synchronous_standby_names') FROM '^\s*(?:ANY|any)\s+(\d+)')::int AS needed
  ), counted AS (
    SELECT
      count(*) FILTER (WHERE state = 'streaming' AND sync_state = 'sync')::int AS sync,
      count(*) FILTER (WHERE state = 'streaming' AND sync_state = 'quorum')::int AS quorum,
      count(*) FILTER (WHERE state = 'streaming' AND sync_state NOT IN ('sync', 'quorum'))::int AS other,
      count(*) FILTER (WHERE state IS NULL)::int AS hidden
    FROM senders
  )
  SELECT
    pg_is_in_recovery(),
    CASE WHEN NOT pg_is_in_recovery() THEN leaseboard_generation() END,
    CASE WHEN pg_is_in_recovery() THEN pg_last_xact_replay_timestamp() END,
    CASE WHEN pg_is_in_recovery() THEN coalesce(pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn(), false) END,
    CASE WHEN pg_is_in_recovery() THEN (
      SELECT CASE WHEN count(*) = 0 THEN false WHEN bool_or(status IS NULL) THEN NULL ELSE bool_or(status = 'streaming') END
      FROM pg_stat_wal_receiver
    ) END,
    c.sync + least(c.quorum, coalesce(q.needed, c.quorum)),
    c.other + c.quorum - least(c.quorum, coalesce(q.needed, c.quorum)),
    c.hidden,
    (SELECT (max(extract(epoch FROM replay_lag)) * 1000)::float8 FROM senders WHERE state = 'streaming'),
    (SELECT max(pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_receive_lsn() ELSE pg_current_wal_lsn() END, replay_lsn))::float8
       FROM senders WHERE state = 'streaming'),
    current_setting('synchronous_standby_names') <> '',
    current_setting('synchronous_commit'),
    clock_timestamp()
  FROM counted c, quorum q
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_report(p_lease text, p_epoch bigint, p_seq integer, p_occurrence text, p_cursor bigint, p_report_every_ms integer)
 RETURNS TABLE(advanced boolean, reported_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
-- Lock order: the strongest lock this report takes on progress_reports, first (see migration 0025_report_runs).
LOCK TABLE ONLY progress_reports IN ROW EXCLUSIVE MODE;
RETURN QUERY
WITH c AS (SELECT date_trunc('milliseconds', clock_timestamp()) AS now),
  prev AS (SELECT * FROM progress_summaries WHERE lease = $1),
  r AS (
    SELECT $1::text AS lease, $2::bigint AS epoch, $3::int AS seq, $4::text AS occurrence, $5::bigint AS cursor,
           $6::int AS every, c.now,
           (prev.lease IS NULL OR prev.epoch < $2::bigint
             OR prev.in_flight IS DISTINCT FROM $4::text OR prev.cursor IS DISTINCT FROM $5::bigint) AS advanced,
           CASE WHEN prev.epoch = $2::bigint THEN (CASE WHEN $3::int <> prev.last_seq + 1 THEN 'lost_reports'
      WHEN c.now - prev.last_report_at > 3 * (prev.report_every_ms) * interval '1 millisecond' THEN 'silence' END) END AS break_reason,
           prev.last_report_at AS break_from, prev.epoch AS prev_epoch, prev.last_seq AS prev_seq,
           prev.in_flight AS prev_occurrence, prev.cursor AS prev_cursor
    FROM c LEFT JOIN prev ON true
  ),
  open_run AS (
    SELECT o.id, o.reported_at, COALESCE(o.last_seq, o.seq) AS last_seq,
           (extract(epoch FROM r.now - COALESCE(o.last_at, o.reported_at)) * 1000)::int - o.report_every_ms AS quiet_offset
    FROM r CROSS JOIN LATERAL (SELECT o.* FROM progress_reports o WHERE o.lease = r.lease AND o.epoch = r.epoch
                               ORDER BY o.reported_at DESC, o.id DESC LIMIT 1) o
    -- The run ends on the summary's own last report, so the summary's in_flight and cursor are its last report's.
    WHERE r.prev_epoch = r.epoch AND COALESCE(o.last_seq, o.seq) = r.prev_seq AND COALESCE(o.last_at, o.reported_at) = r.break_from
      AND o.report_every_ms = r.every
      AND (CASE WHEN r.seq <> COALESCE(o.last_seq, o.seq) + 1 THEN 'lost_reports'
      WHEN r.now - COALESCE(o.last_at, o.reported_at) > 3 * (o.report_every_ms) * interval '1 millisecond' THEN 'silence' END) IS NULL
      AND COALESCE(o.last_seq, o.seq) - o.seq < 1799 AND r.now - o.reported_at < interval '1 hour'
      AND COALESCE(length(o.packed), 0) < 1600
      AND (r.cursor IS NULL OR r.cursor BETWEEN -2305843009213693951 AND 2305843009213693951)
      AND (r.prev_cursor IS NULL OR r.prev_cursor BETWEEN -2305843009213693951 AND 2305843009213693951)
      AND EXISTS (SELECT 1 FROM report_partitions p WHERE p."from" <= o.reported_at AND o.reported_at < p."to" AND r.now < p."to")
  ),
  extended AS (
    UPDATE progress_reports o SET last_seq = r.seq, last_at = r.now,
           packed = leaseboard_run_append(o.packed, r.lease, o.reported_at, open_run.quiet_offset, r.prev_occurrence, r.occurrence,
                                           r.prev_cursor, r.cursor, o.last_move),
           last_move = CASE WHEN r.cursor <> r.prev_cursor THEN r.cursor - r.prev_cursor ELSE o.last_move END,
           later_advance = CASE WHEN r.advanced THEN true ELSE o.later_advance END
    FROM open_run, r
    WHERE o.id = open_run.id AND o.reported_at = open_run.reported_at AND COALESCE(o.last_seq, o.seq) = open_run.last_seq
    RETURNING o.id
  ),
  appended AS (
    INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at, report_every_ms)
    SELECT lease, epoch, seq, occurrence, cursor, advanced, now, every FROM r WHERE NOT EXISTS (SELECT 1 FROM extended)
  ),
  summary AS (
    INSERT INTO progress_summaries AS s (lease, epoch, first_report_at, last_report_at, last_seq, last_advance_at,
                                         in_flight, cursor, report_every_ms, gap_from, gap_to, gap_reason)
    SELECT lease, epoch, now, now, seq, now, occurrence, cursor, every,
           CASE WHEN break_reason IS NOT NULL THEN break_from END,
           CASE WHEN break_reason IS NOT NULL THEN now END, break_reason
    FROM r
    ON CONFLICT (lease) DO UPDATE SET
      epoch = excluded.epoch,
      first_report_at = CASE WHEN s.epoch = excluded.epoch THEN s.first_report_at ELSE excluded.first_report_at END,
      last_report_at = excluded.last_report_at,
      last_seq = excluded.last_seq,
      last_advance_at = CASE WHEN (SELECT advanced FROM r) THEN excluded.last_advance_at ELSE s.last_advance_at END,
      in_flight = excluded.in_flight,
      cursor = excluded.cursor,
      report_every_ms = excluded.report_every_ms,
      gap_from = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_from ELSE s.gap_from END,
      gap_to = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_to ELSE s.gap_to END,
      gap_reason = CASE WHEN excluded.gap_reason IS NOT NULL OR s.epoch <> excluded.epoch THEN excluded.gap_reason ELSE s.gap_reason END,
      -- BEGIN change stamp rule (migration rejudge_only_changes): a report that moves only
      -- last_report_at and last_seq (same epoch, in_flight, cursor and cadence, no advance,
      -- no break) is a touch, not a change.
      change_xid = CASE WHEN s.epoch = excluded.epoch AND s.in_flight IS NOT DISTINCT FROM excluded.in_flight
                          AND s.cursor IS NOT DISTINCT FROM excluded.cursor AND s.report_every_ms = excluded.report_every_ms
                          AND excluded.gap_reason IS NULL AND NOT (SELECT advanced FROM r)
                        THEN s.change_xid ELSE pg_current_xact_id() END,
      touch_xid = pg_current_xact_id()
      -- END change stamp rule
    WHERE s.epoch <= excluded.epoch
  )
SELECT advanced, now AS reported_at FROM r;
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_report_many(p_leases text[], p_epochs bigint[], p_seqs integer[], p_occurrences text[], p_cursors bigint[], p_report_every_ms integer[])
 RETURNS TABLE(i bigint, advanced boolean, reported_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  e record;
BEGIN
FOR e IN
  SELECT u.lease, u.epoch, u.seq, u.occurrence, u.cursor, u.every, u.n
  FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::bigint[], $6::int[])
       WITH ORDINALITY AS u(lease, epoch, seq, occurrence, cursor, every, n)
  ORDER BY u.lease, u.n
LOOP
  RETURN QUERY SELECT e.n, r.advanced, r.reported_at
    FROM leaseboard_report(e.lease, e.epoch, e.seq, e.occurrence, e.cursor, e.every) r;
END LOOP;
END
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_report_partition(p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  part text := 'progress_reports_p' || to_char(p_from AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MISS');
BEGIN
  IF EXISTS (SELECT 1 FROM report_partitions r WHERE r."from" < p_to AND r."to" > p_from) THEN
    RETURN false;
  END IF;
  LOCK TABLE progress_reports IN SHARE ROW EXCLUSIVE MODE;
  -- Again under the lock: a concurrent caller may have made it while this one waited.
  IF EXISTS (SELECT 1 FROM report_partitions r WHERE r."from" < p_to AND r."to" > p_from) THEN
    RETURN false;
  END IF;
  IF EXISTS (SELECT 1 FROM progress_reports_default WHERE reported_at >= p_from AND reported_at < p_to) THEN
    EXECUTE format('CREATE TABLE %I (LIKE progress_reports INCLUDING DEFAULTS)', part);
    EXECUTE format('WITH moved AS (DELETE FROM progress_reports_default WHERE reported_at >= $1 AND reported_at < $2 RETURNING *)
                    INSERT INTO %I SELECT * FROM moved', part) USING p_from, p_to;
    EXECUTE format('ALTER TABLE progress_reports ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, p_from, p_to);
  ELSE
    EXECUTE format('CREATE TABLE %I PARTITION OF progress_reports FOR VALUES FROM (%L) TO (%L)', part, p_from, p_to);
  END IF;
  INSERT INTO report_partitions (name, "from", "to") VALUES (part, p_from, p_to);
  RETURN true;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_retention_partitions(p_lease text, p_epoch bigint, p_now timestamp with time zone, p_ahead interval, p_keep interval, p_width interval, p_batch integer)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  origin constant timestamptz := '2000-01-01 00:00:00+00';
  slot timestamptz := date_bin(p_width, p_now, origin);
  cutoff timestamptz := p_now - p_keep;
  created integer := 0;
  dropped integer := 0;
  busy integer := 0;
  default_pruned integer := 0;
  r record;
BEGIN
  PERFORM leaseboard_fence(p_lease, p_epoch, 'progress_reports');
  PERFORM set_config('lock_timeout', '200ms', true);
  WHILE slot < p_now + p_ahead LOOP
    BEGIN
      IF leaseboard_report_partition(slot, slot + p_width) THEN created := created + 1; END IF;
    EXCEPTION WHEN lock_not_available THEN
      busy := busy + 1;
    END;
    slot := slot + p_width;
  END LOOP;
  FOR r IN SELECT name FROM report_partitions WHERE "to" <= cutoff ORDER BY "to" LIMIT 50 LOOP
    BEGIN
      EXECUTE format('DROP TABLE %I', r.name);
      DELETE FROM report_partitions WHERE name = r.name;
      dropped := dropped + 1;
    EXCEPTION WHEN lock_not_available THEN
      busy := busy + 1;
    END;
  END LOOP;
  DELETE FROM progress_reports_default WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM progress_reports_default WHERE reported_at < cutoff LIMIT p_batch));
  GET DIAGNOSTICS default_pruned = ROW_COUNT;
  RETURN json_build_object('created', created, 'dropped', dropped, 'busy', busy, 'defaultPruned', default_pruned,
                           'oldest', (SELECT min("from") FROM report_partitions));
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_run_append(p_packed bytea, p_lease text, p_run_at timestamp with time zone, p_offset integer, p_prev_occurrence text, p_occurrence text, p_prev_cursor bigint, p_cursor bigint, p_last_move bigint)
 RETURNS bytea
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
DECLARE
  packed bytea := COALESCE(p_packed, '\x'::bytea);
  events bytea := '\x';
  n int := length(packed);
  suffix text;
  bytes bytea;
  slot timestamptz;
  delta bigint;
  again boolean := false;
  last int;
BEGIN
  IF p_occurrence IS DISTINCT FROM p_prev_occurrence THEN
    IF p_occurrence IS NULL THEN
      events := events || '\xf4'::bytea;
    ELSIF left(p_occurrence, length(p_lease) + 1) = p_lease || '@' THEN
      suffix := substr(p_occurrence, length(p_lease) + 2);
      slot := NULL;
      IF suffix ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$' THEN
        BEGIN
          slot := suffix::timestamptz;
        EXCEPTION WHEN others THEN
          slot := NULL;
        END;
        IF to_char(slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') IS DISTINCT FROM suffix THEN slot := NULL; END IF;
      END IF;
      IF slot IS NOT NULL THEN
        events := events || '\xff'::bytea
          || leaseboard_varint(leaseboard_zigzag(extract(epoch FROM slot - date_trunc('second', p_run_at))::bigint));
      ELSE
        bytes := convert_to(suffix, 'UTF8');
        events := events || '\xf5'::bytea || leaseboard_varint(length(bytes)) || bytes;
      END IF;
    ELSE
      bytes := convert_to(p_occurrence, 'UTF8');
      events := events || '\xf6'::bytea || leaseboard_varint(length(bytes)) || bytes;
    END IF;
  END IF;
  IF p_cursor IS DISTINCT FROM p_prev_cursor THEN
    IF p_cursor IS NULL THEN
      events := events || '\xf3'::bytea;
    ELSIF p_prev_cursor IS NULL THEN
      events := events || '\xf2'::bytea || leaseboard_varint(leaseboard_zigzag(p_cursor));
    ELSE
      delta := p_cursor - p_prev_cursor;
      IF delta = p_last_move AND p_offset BETWEEN -1 AND 12 THEN
        again := true;
      ELSIF delta BETWEEN 1 AND 8 THEN
        events := events || set_byte('\x00'::bytea, 0, (246 + delta)::int);
      ELSE
        events := events || '\xf1'::bytea || leaseboard_varint(leaseboard_zigzag(delta));
      END IF;
    END IF;
  END IF;
  IF again THEN
    RETURN packed || events || set_byte('\x00'::bytea, 0, 227 + p_offset);
  END IF;
  IF p_offset BETWEEN -1 AND 12 AND length(events) = 0 AND n > 0 THEN
    last := get_byte(packed, n - 1);
    IF last BETWEEN 196 AND 209 THEN
      RETURN set_byte(packed, n - 1, (last - 196) * 14 + p_offset + 1);
    END IF;
  END IF;
  IF p_offset BETWEEN -1 AND 28 THEN
    RETURN packed || events || set_byte('\x00'::bytea, 0, 197 + p_offset);
  END IF;
  RETURN packed || events || '\xf0'::bytea || leaseboard_varint(leaseboard_zigzag(p_offset));
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_run_reports(p_lease text, p_at timestamp with time zone, p_seq integer, p_occurrence text, p_cursor bigint, p_advanced boolean, p_every integer, p_packed bytea)
 RETURNS TABLE(reported_at timestamp with time zone, seq integer, occurrence text, cursor bigint, advanced boolean, report_every_ms integer)
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
DECLARE
  n int := COALESCE(length(p_packed), 0);
  i int := 0;
  b int;
  x int;
  v bigint;
  shift int;
  offsets int[];
  ms bigint := 0;
  cur bigint := p_cursor;
  occ text := p_occurrence;
  last_move bigint;
  moved boolean := false;
BEGIN
  reported_at := p_at; seq := p_seq; occurrence := p_occurrence; cursor := p_cursor; advanced := p_advanced; report_every_ms := p_every;
  RETURN NEXT;
  WHILE i < n LOOP
    b := get_byte(p_packed, i);
    i := i + 1;
    IF b IN (240, 241, 242, 245, 246, 255) THEN
      v := 0; shift := 0;
      LOOP
        x := get_byte(p_packed, i);
        i := i + 1;
        v := v | ((x & 127)::bigint << shift);
        EXIT WHEN x < 128;
        shift := shift + 7;
      END LOOP;
      IF b NOT IN (245, 246) THEN
        v := CASE WHEN v & 1 = 0 THEN v >> 1 ELSE -((v + 1) >> 1) END; -- zigzag (a length is not)
      END IF;
    END IF;
    IF b <= 240 THEN
      IF b BETWEEN 226 AND 239 THEN
        cur := cur + last_move;
        moved := true;
      END IF;
      offsets := CASE WHEN b <= 195 THEN ARRAY[b / 14 - 1, b % 14 - 1] WHEN b <= 225 THEN ARRAY[b - 197]
                      WHEN b <= 239 THEN ARRAY[b - 227] ELSE ARRAY[v::int] END;
      FOREACH x IN ARRAY offsets LOOP
        ms := ms + p_every + x;
        reported_at := p_at + ms * interval '1 millisecond';
        seq := seq + 1; occurrence := occ; cursor := cur; advanced := moved; moved := false;
        RETURN NEXT;
      END LOOP;
    ELSE
      moved := true;
      IF b = 241 THEN cur := cur + v; last_move := v;
      ELSIF b = 242 THEN cur := v;
      ELSIF b = 243 THEN cur := NULL;
      ELSIF b = 244 THEN occ := NULL;
      ELSIF b IN (245, 246) THEN
        occ := (CASE WHEN b = 245 THEN p_lease || '@' ELSE '' END) || convert_from(substring(p_packed FROM i + 1 FOR v::int), 'UTF8');
        i := i + v::int;
      ELSIF b = 255 THEN
        occ := p_lease || '@' || to_char((date_trunc('second', p_at) + v * interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
      ELSE cur := cur + (b - 246); last_move := b - 246;
      END IF;
    END IF;
  END LOOP;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_stamp_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_stamp_touch()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.change_xid = OLD.change_xid THEN
    NEW.change_xid := pg_current_xact_id();
  END IF;
  NEW.touch_xid := pg_current_xact_id();
  RETURN NEW;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_status_reset()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO status_resets (id, change_xid) VALUES (true, pg_current_xact_id())
  ON CONFLICT (id) DO UPDATE SET change_xid = excluded.change_xid;
  RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_timeline()
 RETURNS bigint
 LANGUAGE sql
AS $function$
  SELECT ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint
$function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_tombstones_by_lease()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO status_deletions (name, change_xid) SELECT DISTINCT g.lease, pg_current_xact_id() FROM gone g
  ON CONFLICT (name) DO UPDATE SET change_xid = excluded.change_xid;
  RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_tombstones_by_name()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO status_deletions (name, change_xid) SELECT DISTINCT g.name, pg_current_xact_id() FROM gone g
  ON CONFLICT (name) DO UPDATE SET change_xid = excluded.change_xid;
  RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_varint(p_value bigint)
 RETURNS bytea
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
DECLARE
  v bigint := p_value;
  bytes bytea := '\x';
BEGIN
  LOOP
    IF v < 128 THEN RETURN bytes || set_byte('\x00'::bytea, 0, v::int); END IF;
    bytes := bytes || set_byte('\x00'::bytea, 0, (128 + (v & 127))::int);
    v := v >> 7;
  END LOOP;
END $function$
;

CREATE OR REPLACE FUNCTION public.leaseboard_zigzag(p_value bigint)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$ SELECT CASE WHEN p_value >= 0 THEN 2 * p_value ELSE -2 * p_value - 1 END $function$
;

-- Aggregates

CREATE AGGREGATE public.leaseboard_run_pack(text, timestamp with time zone, integer, text, text, bigint, bigint, bigint) (
    SFUNC = public.leaseboard_run_append,
    STYPE = bytea,
    INITCOND = ''
);

-- Sequences

CREATE SEQUENCE public.alert_events_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.alert_events_id_seq OWNED BY public.alert_events.id;

CREATE SEQUENCE public.alert_mode_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.alert_mode_audit_id_seq OWNED BY public.alert_mode_audit.id;

CREATE SEQUENCE public.fault_drill_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.fault_drill_audit_id_seq OWNED BY public.fault_drill_audit.id;

CREATE SEQUENCE public.intent_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.intent_audit_id_seq OWNED BY public.intent_audit.id;

CREATE SEQUENCE public.label_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.label_audit_id_seq OWNED BY public.label_audit.id;

CREATE SEQUENCE public.lease_events_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.lease_events_id_seq OWNED BY public.lease_events.id;

CREATE SEQUENCE public.maintenance_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.maintenance_audit_id_seq OWNED BY public.maintenance_audit.id;

CREATE SEQUENCE public.maintenance_windows_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.maintenance_windows_id_seq OWNED BY public.maintenance_windows.id;

CREATE SEQUENCE public.progress_reports_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.progress_reports_id_seq OWNED BY public.progress_reports.id;

CREATE SEQUENCE public.report_token_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.report_token_audit_id_seq OWNED BY public.report_token_audit.id;

CREATE SEQUENCE public.run_requests_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.run_requests_id_seq OWNED BY public.run_requests.id;

CREATE SEQUENCE public.service_token_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.service_token_audit_id_seq OWNED BY public.service_token_audit.id;

CREATE SEQUENCE public.stale_write_rejections_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.stale_write_rejections_id_seq OWNED BY public.stale_write_rejections.id;

CREATE SEQUENCE public.team_owner_audit_id_seq AS bigint START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;
ALTER SEQUENCE public.team_owner_audit_id_seq OWNED BY public.team_owner_audit.id;

-- Tables

CREATE TABLE public.alert_delivery (
    target text NOT NULL,
    queue_depth integer NOT NULL,
    in_flight integer NOT NULL,
    consecutive_failures integer NOT NULL,
    last_error text,
    last_success_age_ms bigint,
    last_failure_age_ms bigint,
    next_attempt_in_ms bigint,
    sent_alerts bigint NOT NULL,
    failed_attempts bigint NOT NULL,
    rejected_alerts bigint NOT NULL,
    dropped_alerts bigint NOT NULL,
    observed_at timestamp(6) with time zone NOT NULL,
    lease text NOT NULL,
    epoch bigint NOT NULL
);

CREATE TABLE public.alert_event_days (
    scheduler text NOT NULL,
    day timestamp(6) with time zone NOT NULL,
    ids bigint[] NOT NULL,
    rules text[] NOT NULL,
    kinds smallint[] NOT NULL,
    at_us bigint[] NOT NULL
);

CREATE TABLE public.alert_events (
    id bigint DEFAULT nextval('public.alert_events_id_seq'::regclass) NOT NULL,
    rule text NOT NULL,
    scheduler text,
    from_state text NOT NULL,
    to_state text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    mode text NOT NULL,
    lease text NOT NULL,
    epoch bigint NOT NULL
) WITH (autovacuum_vacuum_scale_factor=0.02);

CREATE TABLE public.alert_mode_audit (
    id bigint DEFAULT nextval('public.alert_mode_audit_id_seq'::regclass) NOT NULL,
    rule text NOT NULL,
    scheduler text,
    from_mode text,
    from_effective text NOT NULL,
    to_mode text NOT NULL,
    by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    identified_by text
);

CREATE TABLE public.alert_modes (
    rule text NOT NULL,
    scheduler text,
    mode text NOT NULL,
    by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.alert_state (
    rule text NOT NULL,
    scheduler text,
    state text NOT NULL,
    active_at timestamp(6) with time zone,
    fired_at timestamp(6) with time zone,
    keep_firing_since timestamp(6) with time zone,
    resolved_at timestamp(6) with time zone,
    summary text,
    sent_at timestamp(6) with time zone,
    sent_as text,
    delivered_sent_at timestamp(6) with time zone,
    updated_at timestamp(6) with time zone NOT NULL,
    lease text NOT NULL,
    epoch bigint NOT NULL
);

CREATE TABLE public.fault_drill_audit (
    id bigint DEFAULT nextval('public.fault_drill_audit_id_seq'::regclass) NOT NULL,
    lease text NOT NULL,
    process text NOT NULL,
    instance text,
    action text NOT NULL,
    from_state text NOT NULL,
    to_state text NOT NULL,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.health_changes (
    name text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    health text NOT NULL,
    lease text NOT NULL,
    epoch bigint NOT NULL
);

CREATE TABLE public.health_days (
    name text NOT NULL,
    day timestamp(6) with time zone NOT NULL,
    progressing_ms bigint NOT NULL,
    idle_ms bigint NOT NULL,
    stalled_ms bigint NOT NULL,
    no_leader_ms bigint NOT NULL,
    unknown_ms bigint NOT NULL,
    disabled_ms bigint NOT NULL
);

CREATE TABLE public.health_hours (
    name text NOT NULL,
    hour timestamp(6) with time zone NOT NULL,
    progressing_ms bigint NOT NULL,
    idle_ms bigint NOT NULL,
    stalled_ms bigint NOT NULL,
    no_leader_ms bigint NOT NULL,
    unknown_ms bigint NOT NULL,
    disabled_ms bigint NOT NULL
);

CREATE TABLE public.health_observed_minutes (
    minute timestamp(6) with time zone NOT NULL,
    lease text NOT NULL,
    epoch bigint NOT NULL
);

CREATE TABLE public.intent_audit (
    id bigint DEFAULT nextval('public.intent_audit_id_seq'::regclass) NOT NULL,
    lease text NOT NULL,
    disabled boolean NOT NULL,
    by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    identified_by text
);

CREATE TABLE public.label_audit (
    id bigint DEFAULT nextval('public.label_audit_id_seq'::regclass) NOT NULL,
    scheduler text NOT NULL,
    from_labels jsonb,
    to_labels jsonb,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.label_overrides (
    name text NOT NULL,
    labels jsonb,
    by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
);

CREATE TABLE public.lease_event_days (
    lease text NOT NULL,
    day timestamp(6) with time zone NOT NULL,
    nums bigint[] NOT NULL,
    holders text NOT NULL,
    labels text NOT NULL
);

CREATE TABLE public.lease_events (
    id bigint DEFAULT nextval('public.lease_events_id_seq'::regclass) NOT NULL,
    lease text NOT NULL,
    kind text NOT NULL,
    epoch bigint NOT NULL,
    holder text NOT NULL,
    holder_label text,
    at timestamp(6) with time zone NOT NULL,
    previous_epoch bigint,
    previous_holder text,
    previous_ended_at timestamp(6) with time zone,
    last_renewed_at timestamp(6) with time zone
) WITH (autovacuum_vacuum_scale_factor=0.02);

CREATE TABLE public.leaseboard_generation_base (
    id boolean DEFAULT true NOT NULL,
    base bigint DEFAULT 0 NOT NULL
);

CREATE TABLE public.leases (
    name text NOT NULL,
    holder text NOT NULL,
    holder_label text,
    epoch bigint NOT NULL,
    acquired_at timestamp(6) with time zone NOT NULL,
    renewed_at timestamp(6) with time zone NOT NULL,
    expires_at timestamp(6) with time zone NOT NULL,
    ttl_ms integer NOT NULL,
    released_at timestamp(6) with time zone,
    gap_bucket timestamp(6) with time zone,
    gap_bucket_max_ms integer,
    gap_bucket_renewals integer,
    previous_holder text,
    previous_ended_at timestamp(6) with time zone,
    previous_released boolean,
    previous_renewed_at timestamp(6) with time zone,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    previous_epoch bigint,
    touch_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
) WITH (fillfactor=80);

CREATE TABLE public.maintenance_audit (
    id bigint DEFAULT nextval('public.maintenance_audit_id_seq'::regclass) NOT NULL,
    window_id bigint NOT NULL,
    action text NOT NULL,
    from_window jsonb,
    to_window jsonb NOT NULL,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.maintenance_windows (
    id bigint DEFAULT nextval('public.maintenance_windows_id_seq'::regclass) NOT NULL,
    selector text,
    schedulers text[],
    starts_at timestamp(6) with time zone NOT NULL,
    ends_at timestamp(6) with time zone NOT NULL,
    weekly boolean DEFAULT false NOT NULL,
    reason text NOT NULL,
    by text NOT NULL,
    created_at timestamp(6) with time zone NOT NULL,
    updated_at timestamp(6) with time zone NOT NULL,
    cancelled_at timestamp(6) with time zone
);

CREATE TABLE public.occurrence_hours (
    lease text NOT NULL,
    hour timestamp(6) with time zone NOT NULL,
    scheduled_ms integer[] NOT NULL,
    claimed_us bigint[] NOT NULL,
    ended_us bigint[] NOT NULL
) WITH (autovacuum_vacuum_scale_factor=0.02);

CREATE TABLE public.occurrences (
    key text NOT NULL,
    lease text NOT NULL,
    scheduled_at timestamp(6) with time zone NOT NULL,
    state text NOT NULL,
    epoch bigint NOT NULL,
    claimed_at timestamp(6) with time zone NOT NULL,
    completed_at timestamp(6) with time zone,
    cursor bigint DEFAULT 0 NOT NULL,
    step integer DEFAULT 0 NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    exit_code integer
) WITH (autovacuum_vacuum_scale_factor=0.02);

CREATE TABLE public.operator_sessions (
    id text NOT NULL,
    who text NOT NULL,
    opened_at timestamp(6) with time zone NOT NULL,
    expires_at timestamp(6) with time zone NOT NULL,
    revoked_at timestamp(6) with time zone
);

CREATE TABLE public.progress_reports (
    id bigint DEFAULT nextval('public.progress_reports_id_seq'::regclass) NOT NULL,
    lease text NOT NULL,
    epoch bigint NOT NULL,
    seq integer NOT NULL,
    occurrence text,
    cursor bigint,
    advanced boolean NOT NULL,
    reported_at timestamp(6) with time zone NOT NULL,
    report_every_ms integer,
    last_seq integer,
    last_at timestamp(6) with time zone,
    packed bytea,
    later_advance boolean,
    last_move bigint
) PARTITION BY RANGE (reported_at);

CREATE TABLE public.progress_summaries (
    lease text NOT NULL,
    epoch bigint NOT NULL,
    first_report_at timestamp(6) with time zone NOT NULL,
    last_report_at timestamp(6) with time zone NOT NULL,
    last_seq integer NOT NULL,
    last_advance_at timestamp(6) with time zone NOT NULL,
    in_flight text,
    cursor bigint,
    report_every_ms integer NOT NULL,
    gap_from timestamp(6) with time zone,
    gap_to timestamp(6) with time zone,
    gap_reason text,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    touch_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
) WITH (fillfactor=80);

CREATE TABLE public.renewal_gap_hours (
    lease text NOT NULL,
    epoch bigint NOT NULL,
    hour timestamp(6) with time zone NOT NULL,
    max_gap_ms integer[] NOT NULL,
    renewals integer NOT NULL
) WITH (autovacuum_vacuum_scale_factor=0.02);

CREATE TABLE public.report_partitions (
    name text NOT NULL,
    "from" timestamp(6) with time zone NOT NULL,
    "to" timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.report_token_audit (
    id bigint DEFAULT nextval('public.report_token_audit_id_seq'::regclass) NOT NULL,
    scheduler text NOT NULL,
    token_id text NOT NULL,
    action text NOT NULL,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.report_tokens (
    id text NOT NULL,
    scheduler text NOT NULL,
    secret_sha256 text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp(6) with time zone NOT NULL,
    last_used_at timestamp(6) with time zone
);

CREATE TABLE public.run_requests (
    id bigint DEFAULT nextval('public.run_requests_id_seq'::regclass) NOT NULL,
    lease text NOT NULL,
    requested_at timestamp(6) with time zone NOT NULL,
    expires_at timestamp(6) with time zone NOT NULL,
    holder text NOT NULL,
    epoch bigint NOT NULL,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    taken_at timestamp(6) with time zone,
    taken_epoch bigint,
    occurrence text
);

CREATE TABLE public.scheduler_intents (
    lease text NOT NULL,
    disabled boolean NOT NULL,
    by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
);

CREATE TABLE public.schedulers (
    name text NOT NULL,
    every_ms integer NOT NULL,
    report_every_ms integer NOT NULL,
    stall_after_ms integer NOT NULL,
    overdue_after_ms integer NOT NULL,
    registered_at timestamp(6) with time zone NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    first_registered_at timestamp(6) with time zone DEFAULT clock_timestamp() NOT NULL,
    labels jsonb DEFAULT '{}'::jsonb NOT NULL
);

CREATE TABLE public.service_token_audit (
    id bigint DEFAULT nextval('public.service_token_audit_id_seq'::regclass) NOT NULL,
    token_id text NOT NULL,
    name text NOT NULL,
    action text NOT NULL,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.service_tokens (
    id text NOT NULL,
    name text NOT NULL,
    scopes text[] NOT NULL,
    schedulers text[],
    selector text,
    salt bytea NOT NULL,
    secret_hmac bytea NOT NULL,
    created_by text NOT NULL,
    created_at timestamp(6) with time zone NOT NULL,
    last_used_at timestamp(6) with time zone,
    revoked_at timestamp(6) with time zone
);

CREATE TABLE public.stale_write_rejections (
    id bigint DEFAULT nextval('public.stale_write_rejections_id_seq'::regclass) NOT NULL,
    lease text NOT NULL,
    attempted_epoch bigint NOT NULL,
    current_epoch bigint,
    resource text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
) WITH (autovacuum_vacuum_scale_factor=0.02);

CREATE TABLE public.status_deletions (
    name text NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
);

CREATE TABLE public.status_resets (
    id boolean DEFAULT true NOT NULL,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL
);

CREATE TABLE public.team_owner_audit (
    id bigint DEFAULT nextval('public.team_owner_audit_id_seq'::regclass) NOT NULL,
    team text NOT NULL,
    from_owner jsonb,
    to_owner jsonb NOT NULL,
    by text NOT NULL,
    identified_by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.team_owners (
    team text NOT NULL,
    contact text NOT NULL,
    runbook_url text,
    by text NOT NULL,
    reason text NOT NULL,
    at timestamp(6) with time zone NOT NULL
);

CREATE TABLE public.progress_reports_default PARTITION OF public.progress_reports DEFAULT;

-- Views

CREATE VIEW public.alert_events_foldable AS
 SELECT ctid AS row_ctid
   FROM public.alert_events a
  WHERE ((scheduler IS NOT NULL) AND (at < date_trunc('day'::text, (now() - '01:00:00'::interval), 'UTC'::text)) AND (public.leaseboard_alert_kind(from_state, to_state, mode) IS NOT NULL));

CREATE VIEW public.health_rollup_foldable AS
 SELECT 'hour'::text AS kind,
    h.at
   FROM generate_series(date_trunc('hour'::text, GREATEST(( SELECT min(o.minute) AS min
           FROM public.health_observed_minutes o), (now() - '2 days'::interval)), 'UTC'::text), (date_trunc('hour'::text, (now() - '00:05:00'::interval), 'UTC'::text) - '01:00:00'::interval), '01:00:00'::interval) h(at)
  WHERE ((EXISTS ( SELECT 1
           FROM public.schedulers s
          WHERE (s.first_registered_at < (h.at + '01:00:00'::interval)))) AND (NOT (EXISTS ( SELECT 1
           FROM public.health_hours x
          WHERE (x.hour = h.at)))))
UNION ALL
 SELECT 'day'::text AS kind,
    d.at
   FROM generate_series(date_trunc('day'::text, GREATEST(( SELECT min(o.minute) AS min
           FROM public.health_observed_minutes o), (now() - '31 days'::interval)), 'UTC'::text), (date_trunc('day'::text, (now() - '01:00:00'::interval), 'UTC'::text) - '1 day'::interval), '1 day'::interval) d(at)
  WHERE ((EXISTS ( SELECT 1
           FROM public.schedulers s
          WHERE (s.first_registered_at < (d.at + '1 day'::interval)))) AND (NOT (EXISTS ( SELECT 1
           FROM public.health_days x
          WHERE (x.day = d.at)))));

CREATE VIEW public.lease_events_foldable AS
 SELECT ctid AS row_ctid
   FROM public.lease_events e
  WHERE ((at < date_trunc('day'::text, (now() - '01:00:00'::interval), 'UTC'::text)) AND (holder <> ''::text) AND (strpos(holder, ''::text) = 0) AND (strpos(holder, ''::text) = 0) AND ((holder_label IS NULL) OR ((holder_label <> ''::text) AND (strpos(holder_label, ''::text) = 0) AND (strpos(holder_label, ''::text) = 0))));

CREATE VIEW public.occurrences_foldable AS
 SELECT ctid AS row_ctid,
    lease,
    scheduled_at,
    claimed_at,
    completed_at
   FROM public.occurrences o
  WHERE ((scheduled_at < (date_trunc('hour'::text, now(), 'UTC'::text) - '01:00:00'::interval)) AND (key = ((lease || '@'::text) || to_char((scheduled_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD"T"HH24:MI:SS"Z"'::text))) AND (date_trunc('milliseconds'::text, scheduled_at) = scheduled_at) AND (claimed_at >= scheduled_at) AND (EXISTS ( SELECT 1
           FROM public.occurrences n
          WHERE ((n.lease = o.lease) AND (n.scheduled_at > o.scheduled_at) AND (n.state <> 'running'::text)))));

-- Constraints

ALTER TABLE ONLY public.alert_delivery ADD CONSTRAINT alert_delivery_pkey PRIMARY KEY (target);

ALTER TABLE ONLY public.alert_event_days ADD CONSTRAINT alert_event_days_scheduler_day_pk PRIMARY KEY (scheduler, day);

ALTER TABLE ONLY public.alert_events ADD CONSTRAINT alert_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.alert_mode_audit ADD CONSTRAINT alert_mode_audit_identified_by_check CHECK ((identified_by = ANY (ARRAY['sso'::text, 'token'::text, 'cli'::text, 'service_token'::text])));

ALTER TABLE ONLY public.alert_mode_audit ADD CONSTRAINT alert_mode_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.alert_modes ADD CONSTRAINT alert_modes_rule_scheduler UNIQUE NULLS NOT DISTINCT (rule, scheduler);

ALTER TABLE ONLY public.alert_state ADD CONSTRAINT alert_state_rule_scheduler UNIQUE NULLS NOT DISTINCT (rule, scheduler);

ALTER TABLE ONLY public.fault_drill_audit ADD CONSTRAINT fault_drill_audit_identified_by_check CHECK ((identified_by = ANY (ARRAY['sso'::text, 'token'::text, 'cli'::text, 'service_token'::text])));

ALTER TABLE ONLY public.fault_drill_audit ADD CONSTRAINT fault_drill_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.health_changes ADD CONSTRAINT health_changes_health CHECK ((health = ANY (ARRAY['stalled'::text, 'no_leader'::text, 'unknown'::text, 'disabled'::text, 'idle'::text, 'progressing'::text])));

ALTER TABLE ONLY public.health_changes ADD CONSTRAINT health_changes_name_at_pk PRIMARY KEY (name, at) INCLUDE (health);

ALTER TABLE ONLY public.health_days ADD CONSTRAINT health_days_name_day_pk PRIMARY KEY (name, day);

ALTER TABLE ONLY public.health_hours ADD CONSTRAINT health_hours_name_hour_pk PRIMARY KEY (name, hour);

ALTER TABLE ONLY public.health_observed_minutes ADD CONSTRAINT health_observed_minutes_pkey PRIMARY KEY (minute);

ALTER TABLE ONLY public.intent_audit ADD CONSTRAINT intent_audit_identified_by_check CHECK ((identified_by = ANY (ARRAY['sso'::text, 'token'::text, 'cli'::text, 'service_token'::text])));

ALTER TABLE ONLY public.intent_audit ADD CONSTRAINT intent_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.label_audit ADD CONSTRAINT label_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.label_overrides ADD CONSTRAINT label_overrides_labels_ok CHECK (((labels IS NULL) OR public.leaseboard_labels_ok(labels)));

ALTER TABLE ONLY public.label_overrides ADD CONSTRAINT label_overrides_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.lease_event_days ADD CONSTRAINT lease_event_days_lease_day_pk PRIMARY KEY (lease, day);

ALTER TABLE ONLY public.lease_events ADD CONSTRAINT lease_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.leaseboard_generation_base ADD CONSTRAINT leaseboard_generation_base_not_negative CHECK ((base >= 0));

ALTER TABLE ONLY public.leaseboard_generation_base ADD CONSTRAINT leaseboard_generation_base_one_row CHECK (id);

ALTER TABLE ONLY public.leaseboard_generation_base ADD CONSTRAINT leaseboard_generation_base_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.leases ADD CONSTRAINT leases_epoch_exact_in_js CHECK ((epoch < '9007199254740992'::bigint));

ALTER TABLE ONLY public.leases ADD CONSTRAINT leases_epoch_positive CHECK ((epoch > 0));

ALTER TABLE ONLY public.leases ADD CONSTRAINT leases_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.leases ADD CONSTRAINT leases_ttl_range CHECK (((ttl_ms >= 1000) AND (ttl_ms <= 600000)));

ALTER TABLE ONLY public.maintenance_audit ADD CONSTRAINT maintenance_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.maintenance_windows ADD CONSTRAINT maintenance_windows_names CHECK (((schedulers IS NULL) OR ((cardinality(schedulers) >= 1) AND (cardinality(schedulers) <= 100))));

ALTER TABLE ONLY public.maintenance_windows ADD CONSTRAINT maintenance_windows_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.maintenance_windows ADD CONSTRAINT maintenance_windows_span CHECK (((ends_at > starts_at) AND ((ends_at - starts_at) <= '30 days'::interval) AND ((NOT weekly) OR ((ends_at - starts_at) < '7 days'::interval))));

ALTER TABLE ONLY public.maintenance_windows ADD CONSTRAINT maintenance_windows_target CHECK (((selector IS NULL) <> (schedulers IS NULL)));

ALTER TABLE ONLY public.occurrence_hours ADD CONSTRAINT occurrence_hours_lease_hour_pk PRIMARY KEY (lease, hour);

ALTER TABLE ONLY public.occurrences ADD CONSTRAINT occurrences_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.operator_sessions ADD CONSTRAINT operator_sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.progress_reports ADD CONSTRAINT progress_reports_id_reported_at_pk PRIMARY KEY (id, reported_at);

ALTER TABLE ONLY public.progress_summaries ADD CONSTRAINT progress_summaries_pkey PRIMARY KEY (lease);

ALTER TABLE ONLY public.renewal_gap_hours ADD CONSTRAINT renewal_gap_hours_lease_hour_epoch_pk PRIMARY KEY (lease, hour, epoch);

ALTER TABLE ONLY public.report_partitions ADD CONSTRAINT report_partitions_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.report_token_audit ADD CONSTRAINT report_token_audit_action CHECK ((action = ANY (ARRAY['create'::text, 'revoke'::text])));

ALTER TABLE ONLY public.report_token_audit ADD CONSTRAINT report_token_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.report_tokens ADD CONSTRAINT report_tokens_id_shape CHECK ((id ~ '^[0-9a-f]{12}$'::text));

ALTER TABLE ONLY public.report_tokens ADD CONSTRAINT report_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.run_requests ADD CONSTRAINT run_requests_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.scheduler_intents ADD CONSTRAINT scheduler_intents_pkey PRIMARY KEY (lease);

ALTER TABLE ONLY public.schedulers ADD CONSTRAINT schedulers_labels_ok CHECK (public.leaseboard_labels_ok(labels));

ALTER TABLE ONLY public.schedulers ADD CONSTRAINT schedulers_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.service_token_audit ADD CONSTRAINT service_token_audit_action CHECK ((action = ANY (ARRAY['create'::text, 'revoke'::text])));

ALTER TABLE ONLY public.service_token_audit ADD CONSTRAINT service_token_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.service_tokens ADD CONSTRAINT service_tokens_id_shape CHECK ((id ~ '^[0-9a-f]{12}$'::text));

ALTER TABLE ONLY public.service_tokens ADD CONSTRAINT service_tokens_one_target CHECK (((schedulers IS NULL) <> (selector IS NULL)));

ALTER TABLE ONLY public.service_tokens ADD CONSTRAINT service_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.service_tokens ADD CONSTRAINT service_tokens_scopes CHECK (((cardinality(scopes) > 0) AND (scopes <@ ARRAY['read'::text, 'intents'::text, 'maintenance'::text, 'reports'::text])));

ALTER TABLE ONLY public.stale_write_rejections ADD CONSTRAINT stale_write_rejections_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.status_deletions ADD CONSTRAINT status_deletions_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.status_resets ADD CONSTRAINT status_resets_one_row CHECK (id);

ALTER TABLE ONLY public.status_resets ADD CONSTRAINT status_resets_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.team_owner_audit ADD CONSTRAINT team_owner_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.team_owners ADD CONSTRAINT team_owners_contact CHECK (((length(contact) >= 1) AND (length(contact) <= 200)));

ALTER TABLE ONLY public.team_owners ADD CONSTRAINT team_owners_pkey PRIMARY KEY (team);

ALTER TABLE ONLY public.team_owners ADD CONSTRAINT team_owners_runbook CHECK (((runbook_url IS NULL) OR ((length(runbook_url) <= 500) AND (runbook_url ~ '^https?://'::text))));

ALTER TABLE ONLY public.team_owners ADD CONSTRAINT team_owners_team CHECK ((public.leaseboard_label_value_ok(team) AND (team <> ''::text)));

-- Indexes

CREATE INDEX alert_event_days_day ON public.alert_event_days USING btree (day);

CREATE INDEX alert_events_at ON public.alert_events USING btree (at);

CREATE INDEX alert_events_scheduler_at ON public.alert_events USING btree (scheduler, at);

CREATE INDEX alert_mode_audit_at ON public.alert_mode_audit USING btree (at);

CREATE INDEX alert_mode_audit_scheduler_at ON public.alert_mode_audit USING btree (scheduler, at);

CREATE INDEX fault_drill_audit_at ON public.fault_drill_audit USING btree (at);

CREATE INDEX fault_drill_audit_lease_at ON public.fault_drill_audit USING btree (lease, at);

CREATE INDEX health_changes_at ON public.health_changes USING btree (at);

CREATE INDEX health_changes_name_health_at ON public.health_changes USING btree (name, health, at);

CREATE INDEX health_days_day ON public.health_days USING btree (day);

CREATE INDEX health_hours_hour ON public.health_hours USING btree (hour);

CREATE INDEX intent_audit_lease_at ON public.intent_audit USING btree (lease, at);

CREATE INDEX label_audit_at ON public.label_audit USING btree (at);

CREATE INDEX label_audit_scheduler_at ON public.label_audit USING btree (scheduler, at);

CREATE INDEX label_overrides_change_xid ON public.label_overrides USING btree (change_xid);

CREATE INDEX lease_event_days_day ON public.lease_event_days USING btree (day);

CREATE INDEX lease_events_at ON public.lease_events USING btree (at);

CREATE INDEX lease_events_lease_at ON public.lease_events USING btree (lease, at);

CREATE INDEX maintenance_audit_at ON public.maintenance_audit USING btree (at);

CREATE INDEX maintenance_audit_window_at ON public.maintenance_audit USING btree (window_id, at);

CREATE INDEX maintenance_windows_open ON public.maintenance_windows USING btree (cancelled_at, ends_at);

CREATE INDEX occurrence_hours_hour ON public.occurrence_hours USING btree (hour);

CREATE INDEX occurrences_change_xid ON public.occurrences USING btree (change_xid);

CREATE INDEX occurrences_lease_scheduled ON public.occurrences USING btree (lease, scheduled_at);

CREATE INDEX occurrences_scheduled_at ON public.occurrences USING btree (scheduled_at);

CREATE INDEX operator_sessions_expires_at ON public.operator_sessions USING btree (expires_at);

CREATE INDEX progress_reports_lease_epoch_at ON ONLY public.progress_reports USING btree (lease, epoch, reported_at);

CREATE INDEX renewal_gap_hours_hour ON public.renewal_gap_hours USING btree (hour);

CREATE INDEX report_token_audit_scheduler_at ON public.report_token_audit USING btree (scheduler, at);

CREATE INDEX report_tokens_scheduler ON public.report_tokens USING btree (scheduler);

CREATE INDEX run_requests_lease_requested_at ON public.run_requests USING btree (lease, requested_at);

CREATE INDEX run_requests_requested_at ON public.run_requests USING btree (requested_at);

CREATE INDEX scheduler_intents_change_xid ON public.scheduler_intents USING btree (change_xid);

CREATE INDEX schedulers_change_xid ON public.schedulers USING btree (change_xid);

CREATE INDEX service_token_audit_at ON public.service_token_audit USING btree (at);

CREATE UNIQUE INDEX service_tokens_live_name ON public.service_tokens USING btree (name) WHERE (revoked_at IS NULL);

CREATE INDEX service_tokens_revoked_at ON public.service_tokens USING btree (revoked_at);

CREATE INDEX stale_write_rejections_at ON public.stale_write_rejections USING btree (at);

CREATE INDEX stale_write_rejections_change_xid ON public.stale_write_rejections USING btree (change_xid);

CREATE INDEX stale_write_rejections_lease_at ON public.stale_write_rejections USING btree (lease, at);

CREATE INDEX status_deletions_change_xid ON public.status_deletions USING btree (change_xid);

CREATE INDEX team_owner_audit_at ON public.team_owner_audit USING btree (at);

CREATE INDEX team_owner_audit_team_at ON public.team_owner_audit USING btree (team, at);

-- Triggers

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.alert_delivery FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_insert AFTER INSERT ON public.alert_delivery REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.alert_delivery FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_update AFTER UPDATE ON public.alert_delivery REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.alert_event_days FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.alert_event_days FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.alert_events FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_insert AFTER INSERT ON public.alert_events REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.alert_events FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_update AFTER UPDATE ON public.alert_events REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.alert_state FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_insert AFTER INSERT ON public.alert_state REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.alert_state FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_update AFTER UPDATE ON public.alert_state REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.health_changes FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_insert AFTER INSERT ON public.health_changes REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.health_changes FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_update AFTER UPDATE ON public.health_changes REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.health_days FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.health_days FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.health_hours FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.health_hours FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.health_observed_minutes FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_insert AFTER INSERT ON public.health_observed_minutes REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.health_observed_minutes FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_update AFTER UPDATE ON public.health_observed_minutes REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER label_overrides_stamp_change BEFORE UPDATE ON public.label_overrides FOR EACH ROW WHEN ((new.change_xid = old.change_xid)) EXECUTE FUNCTION public.leaseboard_stamp_change();

CREATE TRIGGER label_overrides_status_reset AFTER TRUNCATE ON public.label_overrides FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER label_overrides_tombstones AFTER DELETE ON public.label_overrides REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_name();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.lease_event_days FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.lease_event_days FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.lease_events FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.lease_events FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leases_flush_renewal_gap AFTER UPDATE OF gap_bucket ON public.leases FOR EACH ROW WHEN (((old.gap_bucket IS NOT NULL) AND (old.gap_bucket IS DISTINCT FROM new.gap_bucket))) EXECUTE FUNCTION public.leaseboard_flush_renewal_gap();

CREATE TRIGGER leases_stamp_change BEFORE UPDATE ON public.leases FOR EACH ROW WHEN ((new.touch_xid = old.touch_xid)) EXECUTE FUNCTION public.leaseboard_stamp_touch();

CREATE TRIGGER leases_status_reset AFTER TRUNCATE ON public.leases FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER leases_tombstones AFTER DELETE ON public.leases REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_name();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.occurrence_hours FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.occurrence_hours FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.occurrences FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_insert AFTER INSERT ON public.occurrences REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.occurrences FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_update AFTER UPDATE ON public.occurrences REFERENCING NEW TABLE AS fenced_rows FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_rows();

CREATE TRIGGER occurrences_stamp_change BEFORE UPDATE ON public.occurrences FOR EACH ROW WHEN (((new.change_xid = old.change_xid) AND (((((old.key IS DISTINCT FROM new.key) OR (old.lease IS DISTINCT FROM new.lease)) OR (old.scheduled_at IS DISTINCT FROM new.scheduled_at)) OR (old.state IS DISTINCT FROM new.state)) OR (old.epoch IS DISTINCT FROM new.epoch)))) EXECUTE FUNCTION public.leaseboard_stamp_change();

CREATE TRIGGER occurrences_status_reset AFTER TRUNCATE ON public.occurrences FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER occurrences_tombstones AFTER DELETE ON public.occurrences REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_lease();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.progress_reports FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.progress_reports FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER progress_summaries_stamp_change BEFORE UPDATE ON public.progress_summaries FOR EACH ROW WHEN ((new.touch_xid = old.touch_xid)) EXECUTE FUNCTION public.leaseboard_stamp_touch();

CREATE TRIGGER progress_summaries_status_reset AFTER TRUNCATE ON public.progress_summaries FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER progress_summaries_tombstones AFTER DELETE ON public.progress_summaries REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_lease();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.renewal_gap_hours FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.renewal_gap_hours FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE CONSTRAINT TRIGGER scheduler_intents_audited AFTER INSERT OR UPDATE OF disabled, by, reason ON public.scheduler_intents DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.leaseboard_intent_audited();

CREATE TRIGGER scheduler_intents_stamp_change BEFORE UPDATE ON public.scheduler_intents FOR EACH ROW WHEN ((new.change_xid = old.change_xid)) EXECUTE FUNCTION public.leaseboard_stamp_change();

CREATE TRIGGER scheduler_intents_status_reset AFTER TRUNCATE ON public.scheduler_intents FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER scheduler_intents_tombstones AFTER DELETE ON public.scheduler_intents REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_lease();

CREATE TRIGGER schedulers_stamp_change BEFORE UPDATE ON public.schedulers FOR EACH ROW WHEN ((new.change_xid = old.change_xid)) EXECUTE FUNCTION public.leaseboard_stamp_change();

CREATE TRIGGER schedulers_status_reset AFTER TRUNCATE ON public.schedulers FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER schedulers_tombstones AFTER DELETE ON public.schedulers REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_name();

CREATE TRIGGER leaseboard_fence_delete AFTER DELETE ON public.stale_write_rejections FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER leaseboard_fence_truncate BEFORE TRUNCATE ON public.stale_write_rejections FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_fence_deletes();

CREATE TRIGGER stale_write_rejections_status_reset AFTER TRUNCATE ON public.stale_write_rejections FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

CREATE TRIGGER stale_write_rejections_tombstones AFTER DELETE ON public.stale_write_rejections REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_tombstones_by_lease();

CREATE TRIGGER status_deletions_status_reset AFTER TRUNCATE ON public.status_deletions FOR EACH STATEMENT EXECUTE FUNCTION public.leaseboard_status_reset();

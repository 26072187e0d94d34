-- The demo leaves the product's schema: its synthetic `documents` and the retention planner's fenced
-- `plan_items` now live in the schema `leaseboard_demo`, created by the demo's own migrations
-- (examples/demo/db), never by `leaseboard migrate`. A production database never held anything but
-- synthetic rows in them, so they are dropped, not moved; a demo's next start creates and seeds its own.
-- Their fence triggers go with them; the fence itself (leaseboard_fence_table and the functions of
-- 0004_fence_triggers) stays, generic, for any table with lease and epoch columns.
--
-- The fold of old occurrences (0031_occurrence_hours) waited for an occurrence's plan items to be pruned
-- first; the view is redefined without them (same columns), before the table it named is dropped.
CREATE OR REPLACE VIEW occurrences_foldable AS
SELECT o.ctid AS row_ctid, o.lease, o.scheduled_at, o.claimed_at, o.completed_at
FROM occurrences o
WHERE o.scheduled_at < date_trunc('hour', now(), 'UTC') - interval '1 hour'
  AND o.key = o.lease || '@' || to_char(o.scheduled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  AND date_trunc('milliseconds', o.scheduled_at) = o.scheduled_at
  AND o.claimed_at >= o.scheduled_at
  AND EXISTS (SELECT 1 FROM occurrences n WHERE n.lease = o.lease AND n.scheduled_at > o.scheduled_at AND n.state <> 'running');
--> statement-breakpoint
DROP TABLE IF EXISTS "plan_items";--> statement-breakpoint
DROP TABLE IF EXISTS "documents";

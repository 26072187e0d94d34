-- The pruner's partition round runs as its definer (the migrator, who owns progress_reports), so the
-- schedulers' own login (leaseboard_scheduler, db/roles.ts) can run the pruner without owning any
-- table: creating, attaching and dropping partitions needs ownership, which no scheduler login has.
--
-- Guarantees: unchanged behaviour — the function still checks the caller's fence first
-- (leaseboard_fence: LB001 when stale) and changes only progress_reports' partitions and its default
-- partition's rows past retention; its search_path is pinned so a caller cannot substitute objects.
-- Who may execute it is set with the roles (db/roles.ts: schedulers only, where roles exist).
-- Tables: none created here.
ALTER FUNCTION leaseboard_retention_partitions(text, bigint, timestamptz, interval, interval, interval, integer)
  SECURITY DEFINER SET search_path = public, pg_temp;

-- What protects the authority, as the node that answers sees it (docs/design.md, "Replication and
-- failover"; judged by lib/status/durability.ts, read by db/replication-state.ts): one row, read-only,
-- on a primary and on a standby alike.
--
-- Why a definer: pg_stat_replication and pg_stat_wal_receiver show a row's details (state, sync_state,
-- lags, positions) only to superusers and members of pg_read_all_stats. The status service reads as
-- leaseboard_reader, which sees a streaming standby's row with every detail NULL — counted naively, a
-- replicated cluster would read as a single node. Granting pg_monitor to the reader instead would let
-- it read every session's query text and every statistic of the cluster; this function answers
-- aggregates only (counts, the largest lag, whether synchronous_standby_names is set — never its value,
-- an address or an application_name, which may be host names). It runs as its owner, the migrator:
-- a migrator without pg_read_all_stats sees hidden rows too, and says so (`hidden_standbys` > 0, which
-- the judgement reads as unknown, never as "no standby"). Who may execute it: db/roles.ts.
--
-- Columns (primary | standby):
--   in_recovery                      false | true
--   generation                       the failover generation (epoch's high part) | null
--   last_replay_at                   null | when the last replayed transaction committed on the primary
--   caught_up                        null | everything received has been replayed
--   receiving                        null | the WAL receiver is streaming (null: its state hidden)
--   sync_standbys                    streaming standbys commits wait for: `sync` ones, and for a quorum
--                                    (`ANY n`) n of the `quorum` candidates | 0
--   async_standbys                   the other streaming standbys | 0
--   hidden_standbys                  walsender rows whose state this function may not see
--   standby_replay_lag_ms            the largest replay_lag (null: none measured; PostgreSQL clears it
--                                    once a standby is idle and caught up)
--   standby_lag_bytes                the largest WAL distance from here to a standby's replay position
--   synchronous_standby_names_set    synchronous_standby_names is not empty
--   synchronous_commit               the calling session's synchronous_commit
--   now                              clock_timestamp()
-- Cascading standbys (a standby's own walsenders) are counted on the standby that feeds them.
CREATE FUNCTION leaseboard_replication_state()
RETURNS TABLE (
  in_recovery boolean,
  generation bigint,
  last_replay_at timestamptz,
  caught_up boolean,
  receiving boolean,
  sync_standbys integer,
  async_standbys integer,
  hidden_standbys integer,
  standby_replay_lag_ms float8,
  standby_lag_bytes float8,
  synchronous_standby_names_set boolean,
  synchronous_commit text,
  now timestamptz
)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
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
$$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION leaseboard_replication_state() FROM PUBLIC;

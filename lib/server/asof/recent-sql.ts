/**
 * Recent authority transitions and stale-write rejections of one scheduler,
 * up to an instant: ONE statement through the (lease, at) indexes (lease
 * events: rows and the folded days, as leaseboard_lease_log of migration
 * 0034_lease_event_days unpacks them), newest first, each list bounded by a LIMIT. Live (until = 'infinity') it also
 * brings the scheduler's current alert state and the modes that apply to it
 * (fixed size per scheduler).
 * Params: $1 name, $2 until (timestamptz; 'infinity' for live), $3 event limit,
 * $4 rejection limit.
 */
import { MODE_COLUMNS } from '../../alerts/store/modes';
import { STATE_COLUMNS } from '../../alerts/store/state';
import { msOf } from '../live/facts-sql';

export const EVENT_COLUMNS = `id, kind, epoch::float8 AS epoch, holder, holder_label AS label, ${msOf('at')} AS at_ms,
  previous_epoch::float8 AS previous_epoch, ${msOf('previous_ended_at')} AS previous_ended_ms, ${msOf('last_renewed_at')} AS last_renewed_ms`;

export const RECENT_SQL = `
SELECT
  (SELECT json_agg(x ORDER BY x.at_ms, x.id) FROM (
     SELECT ${EVENT_COLUMNS} FROM leaseboard_lease_log($1, $2::timestamptz) ORDER BY at DESC, id DESC LIMIT $3::int) x) AS events,
  (SELECT json_agg(x ORDER BY x.at_ms DESC, x.id DESC) FROM (
     SELECT id, ${msOf('at')} AS at_ms, attempted_epoch::float8 AS attempted_epoch, current_epoch::float8 AS current_epoch, resource, reason
     FROM stale_write_rejections WHERE lease = $1 AND at <= $2::timestamptz ORDER BY at DESC, id DESC LIMIT $4::int) x) AS rejections,
  CASE WHEN $2::timestamptz = 'infinity' THEN
    (SELECT json_agg(x) FROM (SELECT ${STATE_COLUMNS} FROM alert_state WHERE scheduler = $1) x) END AS alerts,
  CASE WHEN $2::timestamptz = 'infinity' THEN
    (SELECT json_agg(x) FROM (SELECT ${MODE_COLUMNS} FROM alert_modes WHERE scheduler IS NULL OR scheduler = $1) x) END AS modes`;

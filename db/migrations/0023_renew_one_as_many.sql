-- One copy of the renewal rule: leaseboard_renew is leaseboard_renew_many with one lease, so the
-- renewal's condition and SET list (with the renewal-gap bucket) are written once, in 0018's
-- leaseboard_renew_many. Same signature and answers: a row (renewed_at, expires_at) when renewed, none when refused.
CREATE OR REPLACE FUNCTION leaseboard_renew(p_name text, p_holder text, p_epoch bigint)
RETURNS TABLE (renewed_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT m.renewed_at, m.expires_at FROM leaseboard_renew_many(ARRAY[$1::text], ARRAY[$2::text], ARRAY[$3::bigint]) m;
END
$fn$;

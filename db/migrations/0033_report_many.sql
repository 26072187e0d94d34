-- Reports batched as renewals are (issue 21, fleet): one statement carries the reports of many
-- leases, as leaseboard_renew_many carries renewals. It CALLS leaseboard_report once per entry,
-- so the report rule (runs, summary, breaks, stamps) stays written once, in whichever migration
-- last replaced leaseboard_report; nothing of its body is copied here.
-- - Entries run in (lease, i) order: two batches that share leases lock their summary rows in the
--   same order (no deadlock between them), and a lease named twice reports in the order sent.
-- - Each entry answers with its own row: i (its 1-based position in the arrays), advanced and
--   reported_at, as leaseboard_report answers for it alone. Each report is timed by its own call
--   (clock_timestamp inside leaseboard_report), so times ascend within a batch.
-- - Lock order (migration 0025_report_runs): the batch touches no table before its first entry's
--   leaseboard_report, whose first act is ROW EXCLUSIVE on progress_reports; the later entries
--   hold it already. So a batch, like one report, holds nothing on progress_reports while it waits
--   for a partition round, and a round waits (its lock_timeout) for a batch in flight.
-- - One statement, one transaction: an error in any entry fails the whole batch, and every
--   caller in it hears that error, as it would have heard its own failed report.
CREATE OR REPLACE FUNCTION leaseboard_report_many(p_leases text[], p_epochs bigint[], p_seqs int[], p_occurrences text[],
                                                  p_cursors bigint[], p_report_every_ms int[])
RETURNS TABLE (i bigint, advanced boolean, reported_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $fn$
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
$fn$;

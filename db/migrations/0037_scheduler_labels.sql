-- Scheduler labels (team=payments), Kubernetes' rules (lib/limits/labels.ts is the rule in TypeScript; a test
-- runs both forms on one table of cases):
--   key    an optional DNS-subdomain prefix (lower case, <= 253) and "/", then a name of 1-63 characters
--          [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?;
--   value  empty, or 1-63 characters of the same form;
--   at most 32 labels per scheduler.
-- The database checks them too (CHECK leaseboard_labels_ok on every labels column), so a program speaking
-- the SQL protocol directly cannot store what the API refuses.
--
-- Where labels come from:
--   schedulers.labels        what the newest registration declared (leaseboard_register's new p_labels,
--                            default none: a registration wins whole, labels included);
--   label_overrides.labels   an operator's labels (lib/actions/labels.ts, audited in label_audit): when set,
--                            they are the scheduler's labels and no registration overturns them (invariant 9);
--                            NULL hands them back to the registration. Only the operator role writes it.
-- The status service's incremental read sees a label change: both tables carry change_xid (a registration
-- stamps schedulers as before; label_overrides gets the same stamp, tombstone and reset triggers as the
-- other tables the read covers, migration status_change_triggers).
-- Bounded: label_overrides holds one row per scheduler name an operator labelled (its primary key), each at
-- most 32 labels of at most 63+253 characters; label_audit is an audit trail like intent_audit, appended only
-- by an operator's change with a reason (human speed, a few hundred bytes a row) and never pruned.
CREATE FUNCTION leaseboard_label_name_ok(p text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT length(p) BETWEEN 1 AND 63 AND p ~ '^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$'
$fn$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_label_key_ok(p text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN strpos(p, '/') = 0 THEN leaseboard_label_name_ok(p)
    ELSE length(split_part(p, '/', 1)) BETWEEN 1 AND 253
      AND split_part(p, '/', 1) ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'
      AND leaseboard_label_name_ok(substr(p, strpos(p, '/') + 1)) END
$fn$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_label_value_ok(p text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT p = '' OR leaseboard_label_name_ok(p)
$fn$;
--> statement-breakpoint
CREATE FUNCTION leaseboard_labels_ok(p jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT jsonb_typeof(p) = 'object'
    AND (SELECT count(*) FROM jsonb_object_keys(p)) <= 32
    AND NOT EXISTS (SELECT 1 FROM jsonb_each(p) e
                    WHERE jsonb_typeof(e.value) <> 'string'
                       OR NOT leaseboard_label_key_ok(e.key) OR NOT leaseboard_label_value_ok(e.value #>> '{}'))
$fn$;
--> statement-breakpoint
CREATE TABLE "label_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scheduler" text NOT NULL,
	"from_labels" jsonb,
	"to_labels" jsonb,
	"by" text NOT NULL,
	"identified_by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "label_overrides" (
	"name" text PRIMARY KEY NOT NULL,
	"labels" jsonb,
	"by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	"change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "label_overrides_labels_ok" CHECK ("label_overrides"."labels" IS NULL OR leaseboard_labels_ok("label_overrides"."labels"))
);
--> statement-breakpoint
ALTER TABLE "schedulers" ADD COLUMN "labels" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "label_audit_scheduler_at" ON "label_audit" USING btree ("scheduler","at");--> statement-breakpoint
CREATE INDEX "label_audit_at" ON "label_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "label_overrides_change_xid" ON "label_overrides" USING btree ("change_xid");--> statement-breakpoint
ALTER TABLE "schedulers" ADD CONSTRAINT "schedulers_labels_ok" CHECK (leaseboard_labels_ok("schedulers"."labels"));
--> statement-breakpoint
CREATE TRIGGER label_overrides_stamp_change BEFORE UPDATE ON label_overrides FOR EACH ROW
  WHEN (NEW.change_xid = OLD.change_xid) EXECUTE FUNCTION leaseboard_stamp_change();
--> statement-breakpoint
CREATE TRIGGER label_overrides_tombstones AFTER DELETE ON label_overrides REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_tombstones_by_name();
--> statement-breakpoint
CREATE TRIGGER label_overrides_status_reset AFTER TRUNCATE ON label_overrides FOR EACH STATEMENT EXECUTE FUNCTION leaseboard_status_reset();
--> statement-breakpoint
-- Registration declares labels: 0022_health_rollup's body and one more argument (default: none declared).
-- The old signature goes, so a five-argument call (a client written before labels) still resolves — to this.
DROP FUNCTION leaseboard_register(text, int, int, int, int);
--> statement-breakpoint
CREATE FUNCTION leaseboard_register(p_name text, p_every_ms int, p_report_every_ms int, p_stall_after_ms int, p_overdue_after_ms int,
                                    p_labels jsonb DEFAULT '{}'::jsonb)
RETURNS void
LANGUAGE sql VOLATILE AS $fn$
WITH c AS (SELECT clock_timestamp() AS now)
INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at, labels)
SELECT $1, $2, $3, $4, $5, c.now, c.now, $6 FROM c
ON CONFLICT (name) DO UPDATE SET every_ms = excluded.every_ms, report_every_ms = excluded.report_every_ms,
  stall_after_ms = excluded.stall_after_ms, overdue_after_ms = excluded.overdue_after_ms, registered_at = excluded.registered_at,
  labels = excluded.labels
$fn$;

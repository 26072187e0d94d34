-- Maintenance windows and team owners (db/schema.ts says each table's bound):
--   maintenance_windows  an operator's window for a label selector or a list of names, once or weekly; open ones
--                        suppress delivery of the covered schedulers' alerts and mark them "in maintenance";
--                        at most 100 open, closed ones deleted by the next create (lib/actions/maintenance.ts);
--   maintenance_audit    every create, edit and cancel (append-only, like every audit trail);
--   team_owners          the contact and runbook of the schedulers labelled team=<team>, carried in their alerts;
--   team_owner_audit     every change of them.
-- The operator role writes them (db/roles.ts); automation only reads.
CREATE TABLE "maintenance_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"window_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_window" jsonb,
	"to_window" jsonb NOT NULL,
	"by" text NOT NULL,
	"identified_by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_windows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"selector" text,
	"schedulers" text[],
	"starts_at" timestamp(6) with time zone NOT NULL,
	"ends_at" timestamp(6) with time zone NOT NULL,
	"weekly" boolean DEFAULT false NOT NULL,
	"reason" text NOT NULL,
	"by" text NOT NULL,
	"created_at" timestamp(6) with time zone NOT NULL,
	"updated_at" timestamp(6) with time zone NOT NULL,
	"cancelled_at" timestamp(6) with time zone,
	CONSTRAINT "maintenance_windows_target" CHECK (("maintenance_windows"."selector" IS NULL) <> ("maintenance_windows"."schedulers" IS NULL)),
	CONSTRAINT "maintenance_windows_names" CHECK ("maintenance_windows"."schedulers" IS NULL OR cardinality("maintenance_windows"."schedulers") BETWEEN 1 AND 100),
	CONSTRAINT "maintenance_windows_span" CHECK ("maintenance_windows"."ends_at" > "maintenance_windows"."starts_at" AND "maintenance_windows"."ends_at" - "maintenance_windows"."starts_at" <= interval '30 days' AND (NOT "maintenance_windows"."weekly" OR "maintenance_windows"."ends_at" - "maintenance_windows"."starts_at" < interval '7 days'))
);
--> statement-breakpoint
CREATE TABLE "team_owner_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team" text NOT NULL,
	"from_owner" jsonb,
	"to_owner" jsonb NOT NULL,
	"by" text NOT NULL,
	"identified_by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_owners" (
	"team" text PRIMARY KEY NOT NULL,
	"contact" text NOT NULL,
	"runbook_url" text,
	"by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "team_owners_team" CHECK (leaseboard_label_value_ok("team_owners"."team") AND "team_owners"."team" <> ''),
	CONSTRAINT "team_owners_contact" CHECK (length("team_owners"."contact") BETWEEN 1 AND 200),
	CONSTRAINT "team_owners_runbook" CHECK ("team_owners"."runbook_url" IS NULL OR (length("team_owners"."runbook_url") <= 500 AND "team_owners"."runbook_url" ~ '^https?://'))
);
--> statement-breakpoint
CREATE INDEX "maintenance_audit_window_at" ON "maintenance_audit" USING btree ("window_id","at");--> statement-breakpoint
CREATE INDEX "maintenance_audit_at" ON "maintenance_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "maintenance_windows_open" ON "maintenance_windows" USING btree ("cancelled_at","ends_at");--> statement-breakpoint
CREATE INDEX "team_owner_audit_team_at" ON "team_owner_audit" USING btree ("team","at");--> statement-breakpoint
CREATE INDEX "team_owner_audit_at" ON "team_owner_audit" USING btree ("at");
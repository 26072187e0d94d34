-- Operator identity, second pass (issue 23; issue 22 item 4).
--
-- intent_audit and alert_mode_audit record how the acting identity was established (identified_by:
-- 'sso' — the SSO proxy's header from a trusted address; 'token' — the local operator token, with a
-- name typed at sign-in; 'cli' — a command run with database access); rows from before are NULL
-- ("not recorded"). fault_drill_audit records the demo's fault drills like every operator action.
-- operator_sessions holds the open local sessions, so sign-out (and expiry) holds on every dashboard
-- instance (lib/auth/session-store.ts).
--
-- Tables: the audit trails are append-only and never pruned, bounded by people — a row per operator
-- action (docs/design.md "Retention"); UPDATE, DELETE and TRUNCATE on them are granted to nobody but
-- their owner, the migrator (db/roles.ts). operator_sessions holds a row per sign-in; each sign-in
-- deletes, in the same statement, the rows that expired more than a day before, and sessions last 7
-- days at most, so it holds the sign-ins of about 8 days (sign-in needs the operator token and is
-- rate-limited per client).
CREATE TABLE "fault_drill_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"process" text NOT NULL,
	"instance" text,
	"action" text NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"by" text NOT NULL,
	"identified_by" text NOT NULL CHECK ("identified_by" IN ('sso', 'token', 'cli')),
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"who" text NOT NULL,
	"opened_at" timestamp(6) with time zone NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"revoked_at" timestamp(6) with time zone
);
--> statement-breakpoint
ALTER TABLE "alert_mode_audit" ADD COLUMN "identified_by" text CHECK ("identified_by" IN ('sso', 'token', 'cli'));--> statement-breakpoint
ALTER TABLE "intent_audit" ADD COLUMN "identified_by" text CHECK ("identified_by" IN ('sso', 'token', 'cli'));--> statement-breakpoint
CREATE INDEX "fault_drill_audit_lease_at" ON "fault_drill_audit" USING btree ("lease","at");--> statement-breakpoint
CREATE INDEX "fault_drill_audit_at" ON "fault_drill_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "operator_sessions_expires_at" ON "operator_sessions" USING btree ("expires_at");
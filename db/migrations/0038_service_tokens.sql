-- Service tokens: named bearer credentials with scopes (read, intents, maintenance, reports) for a list of
-- schedulers or a label selector, made and revoked by admins (lib/auth/service-tokens.ts), each create and
-- revoke audited in service_token_audit. The secret is stored only as an HMAC-SHA256 keyed with the token's
-- own random salt; the token carries its public id, so a lookup is by id.
-- Bounded: at most SERVICE_TOKENS_LIVE unrevoked tokens (checked under an advisory lock when one is made);
-- a revoked token's row is deleted SERVICE_TOKENS_REVOKED_KEPT_DAYS after its revocation; the audit trail is
-- written at human speed, like the others.
--
-- Also here:
--   identified_by gains 'service_token' (a change a service token made: `by` is the token's name);
--   an intent change without its audit row is refused by the database: scheduler_intents state (disabled,
--   by, reason; not the time alone) can be written
--   only in a transaction that also appends the matching intent_audit row (same lease, state and name),
--   checked at commit. The operator role may write scheduler_intents, so before this a session with its
--   credentials could change an intent unaudited.
CREATE TABLE "service_token_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" text NOT NULL,
	"name" text NOT NULL,
	"action" text NOT NULL,
	"by" text NOT NULL,
	"identified_by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "service_token_audit_action" CHECK ("service_token_audit"."action" IN ('create', 'revoke'))
);
--> statement-breakpoint
CREATE TABLE "service_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"schedulers" text[],
	"selector" text,
	"salt" "bytea" NOT NULL,
	"secret_hmac" "bytea" NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp(6) with time zone NOT NULL,
	"last_used_at" timestamp(6) with time zone,
	"revoked_at" timestamp(6) with time zone,
	CONSTRAINT "service_tokens_id_shape" CHECK ("service_tokens"."id" ~ '^[0-9a-f]{12}$'),
	CONSTRAINT "service_tokens_one_target" CHECK (("service_tokens"."schedulers" IS NULL) <> ("service_tokens"."selector" IS NULL)),
	CONSTRAINT "service_tokens_scopes" CHECK (cardinality("service_tokens"."scopes") > 0 AND "service_tokens"."scopes" <@ ARRAY['read', 'intents', 'maintenance', 'reports']::text[])
);
--> statement-breakpoint
CREATE INDEX "service_token_audit_at" ON "service_token_audit" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "service_tokens_live_name" ON "service_tokens" USING btree ("name") WHERE "service_tokens"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "service_tokens_revoked_at" ON "service_tokens" USING btree ("revoked_at");
--> statement-breakpoint
ALTER TABLE "alert_mode_audit" DROP CONSTRAINT "alert_mode_audit_identified_by_check";--> statement-breakpoint
ALTER TABLE "alert_mode_audit" ADD CONSTRAINT "alert_mode_audit_identified_by_check" CHECK ("identified_by" IN ('sso', 'token', 'cli', 'service_token'));--> statement-breakpoint
ALTER TABLE "fault_drill_audit" DROP CONSTRAINT "fault_drill_audit_identified_by_check";--> statement-breakpoint
ALTER TABLE "fault_drill_audit" ADD CONSTRAINT "fault_drill_audit_identified_by_check" CHECK ("identified_by" IN ('sso', 'token', 'cli', 'service_token'));--> statement-breakpoint
ALTER TABLE "intent_audit" DROP CONSTRAINT "intent_audit_identified_by_check";--> statement-breakpoint
ALTER TABLE "intent_audit" ADD CONSTRAINT "intent_audit_identified_by_check" CHECK ("identified_by" IN ('sso', 'token', 'cli', 'service_token'));--> statement-breakpoint
CREATE FUNCTION leaseboard_intent_audited() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
$fn$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER scheduler_intents_audited AFTER INSERT OR UPDATE OF disabled, "by", reason ON scheduler_intents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION leaseboard_intent_audited();

CREATE TABLE "report_token_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scheduler" text NOT NULL,
	"token_id" text NOT NULL,
	"action" text NOT NULL,
	"by" text NOT NULL,
	"identified_by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "report_token_audit_action" CHECK ("report_token_audit"."action" IN ('create', 'revoke'))
);
--> statement-breakpoint
CREATE TABLE "report_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"scheduler" text NOT NULL,
	"secret_sha256" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp(6) with time zone NOT NULL,
	"last_used_at" timestamp(6) with time zone,
	CONSTRAINT "report_tokens_id_shape" CHECK ("report_tokens"."id" ~ '^[0-9a-f]{12}$')
);
--> statement-breakpoint
CREATE INDEX "report_token_audit_scheduler_at" ON "report_token_audit" USING btree ("scheduler","at");--> statement-breakpoint
CREATE INDEX "report_tokens_scheduler" ON "report_tokens" USING btree ("scheduler");
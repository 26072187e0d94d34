CREATE TABLE "documents" (
	"id" bigint PRIMARY KEY NOT NULL,
	"retention_class" text NOT NULL,
	"created_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intent_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"disabled" boolean NOT NULL,
	"by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lease_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"kind" text NOT NULL,
	"epoch" bigint NOT NULL,
	"holder" text NOT NULL,
	"holder_label" text,
	"at" timestamp(6) with time zone NOT NULL,
	"previous_epoch" bigint,
	"previous_holder" text,
	"previous_ended_at" timestamp(6) with time zone
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"holder_label" text,
	"epoch" bigint NOT NULL,
	"acquired_at" timestamp(6) with time zone NOT NULL,
	"renewed_at" timestamp(6) with time zone NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"ttl_ms" integer NOT NULL,
	"released_at" timestamp(6) with time zone,
	"gap_bucket" timestamp(6) with time zone,
	"gap_bucket_max_ms" integer,
	"gap_bucket_renewals" integer,
	CONSTRAINT "leases_epoch_positive" CHECK ("leases"."epoch" > 0),
	CONSTRAINT "leases_ttl_positive" CHECK ("leases"."ttl_ms" > 0)
);
--> statement-breakpoint
CREATE TABLE "occurrences" (
	"key" text PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"scheduled_at" timestamp(6) with time zone NOT NULL,
	"state" text NOT NULL,
	"epoch" bigint NOT NULL,
	"claimed_at" timestamp(6) with time zone NOT NULL,
	"completed_at" timestamp(6) with time zone,
	"cursor" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_items" (
	"occurrence" text NOT NULL,
	"document_id" bigint NOT NULL,
	"policy" text NOT NULL,
	"epoch" bigint NOT NULL,
	"written_at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "plan_items_occurrence_document_id_pk" PRIMARY KEY("occurrence","document_id")
);
--> statement-breakpoint
CREATE TABLE "progress_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	"seq" integer NOT NULL,
	"occurrence" text,
	"cursor" bigint,
	"advanced" boolean NOT NULL,
	"reported_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "progress_summaries" (
	"lease" text PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL,
	"first_report_at" timestamp(6) with time zone NOT NULL,
	"last_report_at" timestamp(6) with time zone NOT NULL,
	"last_seq" integer NOT NULL,
	"last_advance_at" timestamp(6) with time zone NOT NULL,
	"in_flight" text,
	"cursor" bigint,
	"report_every_ms" integer NOT NULL,
	"gap_from" timestamp(6) with time zone,
	"gap_to" timestamp(6) with time zone,
	"gap_reason" text
);
--> statement-breakpoint
CREATE TABLE "renewal_gaps" (
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	"minute" timestamp(6) with time zone NOT NULL,
	"max_gap_ms" integer NOT NULL,
	"renewals" integer NOT NULL,
	CONSTRAINT "renewal_gaps_lease_minute_epoch_pk" PRIMARY KEY("lease","minute","epoch")
);
--> statement-breakpoint
CREATE TABLE "scheduler_intents" (
	"lease" text PRIMARY KEY NOT NULL,
	"disabled" boolean NOT NULL,
	"by" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedulers" (
	"name" text PRIMARY KEY NOT NULL,
	"every_ms" integer NOT NULL,
	"report_every_ms" integer NOT NULL,
	"stall_after_ms" integer NOT NULL,
	"overdue_after_ms" integer NOT NULL,
	"registered_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stale_write_rejections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease" text NOT NULL,
	"attempted_epoch" bigint NOT NULL,
	"current_epoch" bigint,
	"resource" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "intent_audit_lease_at" ON "intent_audit" USING btree ("lease","at");--> statement-breakpoint
CREATE INDEX "lease_events_lease_at" ON "lease_events" USING btree ("lease","at");--> statement-breakpoint
CREATE INDEX "occurrences_lease_scheduled" ON "occurrences" USING btree ("lease","scheduled_at");--> statement-breakpoint
CREATE INDEX "progress_reports_lease_epoch_at" ON "progress_reports" USING btree ("lease","epoch","reported_at");--> statement-breakpoint
CREATE INDEX "stale_write_rejections_lease_at" ON "stale_write_rejections" USING btree ("lease","at");
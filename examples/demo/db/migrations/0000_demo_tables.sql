-- The demo's tables, in a schema of their own (examples/demo/db/schema.ts). IF NOT EXISTS: the migrator
-- has already made the schema to hold its journal (leaseboard_demo.migrations).
CREATE SCHEMA IF NOT EXISTS "leaseboard_demo";
--> statement-breakpoint
CREATE TABLE "leaseboard_demo"."documents" (
	"id" bigint PRIMARY KEY NOT NULL,
	"retention_class" text NOT NULL,
	"created_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leaseboard_demo"."plan_items" (
	"occurrence" text NOT NULL,
	"document_id" bigint NOT NULL,
	"policy" text NOT NULL,
	"lease" text NOT NULL,
	"epoch" bigint NOT NULL,
	"written_at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "plan_items_occurrence_document_id_pk" PRIMARY KEY("occurrence","document_id")
);
--> statement-breakpoint
-- Fenced by the product's generic fence (db/migrations/0004_fence_triggers.sql): every insert or update
-- must carry its lease's current epoch, every delete must run under a current fence.
SELECT leaseboard_fence_table('leaseboard_demo.plan_items');
--> statement-breakpoint
-- The planner churns a whole plan at a time (it inserts one occurrence's, its prune step deletes the oldest):
-- vacuum often, and keep the emptied pages for the next plan rather than give them back under a lock.
ALTER TABLE "leaseboard_demo"."plan_items" SET (autovacuum_vacuum_scale_factor = 0.02, vacuum_truncate = false);

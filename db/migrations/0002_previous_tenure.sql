ALTER TABLE "leases" ADD COLUMN "previous_holder" text;--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "previous_ended_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "previous_released" boolean;
ALTER TABLE "sessions" ADD COLUMN "provider_grant" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "role_checked_at" bigint;
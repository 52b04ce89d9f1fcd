CREATE TABLE "api_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint,
	"last_used_at" bigint
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "principal" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "created_at" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "idle_ms" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "id_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_secret_hash" ON "api_tokens" USING btree ("secret_hash");
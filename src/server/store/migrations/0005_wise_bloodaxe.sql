CREATE TABLE "batch_chain" (
	"position" bigint PRIMARY KEY NOT NULL,
	"batch_id" bigint NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"digest" char(64) NOT NULL,
	"pruned" boolean DEFAULT false NOT NULL,
	CONSTRAINT "batch_chain_batch_id_unique" UNIQUE("batch_id"),
	CONSTRAINT "batch_chain_digest_unique" UNIQUE("digest")
);
--> statement-breakpoint
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
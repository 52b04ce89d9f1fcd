CREATE TABLE "embeds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"view" text NOT NULL,
	"subject" text NOT NULL,
	"origin" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint,
	"last_used_at" bigint,
	"uses" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"feeds" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint,
	"last_used_at" bigint,
	"uses" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "embeds_secret_hash" ON "embeds" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "feed_tokens_secret_hash" ON "feed_tokens" USING btree ("secret_hash");
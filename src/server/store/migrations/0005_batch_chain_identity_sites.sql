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
CREATE TABLE "sites" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ref" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"iso" char(3) NOT NULL,
	"placed_by" text NOT NULL,
	"people" integer,
	"value" double precision,
	"currency" text,
	"tags" jsonb NOT NULL,
	"trip_from" date,
	"trip_to" date,
	"nearby" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites_revision" (
	"id" integer PRIMARY KEY NOT NULL,
	"revision" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "principal" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "created_at" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "idle_ms" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "id_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_secret_hash" ON "api_tokens" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_ref_key" ON "sites" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "sites_iso" ON "sites" USING btree ("iso");
CREATE TABLE "client_misses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leader_lease" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"fence" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quota_ledger" (
	"id" integer PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replicas" (
	"holder" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"last_seen" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upstream_answers" (
	"key" text PRIMARY KEY NOT NULL,
	"fetched_at" bigint NOT NULL,
	"as_of" bigint,
	"as_of_text" text,
	"methodology_version" text,
	"size" integer NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "client_misses_client_at" ON "client_misses" USING btree ("client","at");--> statement-breakpoint
CREATE INDEX "upstream_answers_fetched_at" ON "upstream_answers" USING btree ("fetched_at");
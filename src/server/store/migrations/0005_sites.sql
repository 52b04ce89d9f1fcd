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
CREATE UNIQUE INDEX "sites_ref_key" ON "sites" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "sites_iso" ON "sites" USING btree ("iso");
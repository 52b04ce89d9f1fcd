CREATE TABLE "batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"methodology_version" text,
	"global" jsonb,
	"global_index" double precision,
	"global_static" double precision,
	"global_active" double precision,
	"events_24h" integer,
	"global_tier" text,
	"tier_counts" jsonb,
	"country_count" integer NOT NULL,
	"source" text NOT NULL,
	"demo" boolean DEFAULT false NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "country_rows" (
	"batch_id" bigint NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"iso" char(3) NOT NULL,
	"name" text,
	"risk" double precision,
	"tier" text,
	"static" double precision,
	"active" double precision,
	"delta_active" double precision,
	"delta_headline" double precision,
	"confidence" double precision,
	"profile" text,
	"threat_vectors" jsonb,
	"source_count" integer,
	"categories" jsonb,
	CONSTRAINT "country_rows_batch_id_iso_pk" PRIMARY KEY("batch_id","iso")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"iso" char(3) NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"headline" text NOT NULL,
	"url" text,
	"source" text,
	"role" text,
	"breaking" boolean,
	"payload" jsonb NOT NULL,
	"first_seen" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "country_rows" ADD CONSTRAINT "country_rows_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batches_as_of_key" ON "batches" USING btree ("as_of");--> statement-breakpoint
CREATE INDEX "country_rows_iso_as_of" ON "country_rows" USING btree ("iso","as_of");--> statement-breakpoint
CREATE UNIQUE INDEX "events_iso_url_ts_key" ON "events" USING btree ("iso","url","ts") WHERE "events"."url" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "events_iso_headline_source_day_key" ON "events" USING btree ("iso",lower("headline"),coalesce("source", ''),"day");--> statement-breakpoint
CREATE INDEX "events_ts_id" ON "events" USING btree ("ts" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_iso_ts_id" ON "events" USING btree ("iso","ts" DESC NULLS LAST,"id" DESC NULLS LAST);
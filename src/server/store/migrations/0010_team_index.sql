CREATE TABLE "country_overrides" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"iso" char(3) NOT NULL,
	"tier" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"set_at" timestamp with time zone NOT NULL,
	"set_by" text NOT NULL,
	"version" integer NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_how" text
);
--> statement-breakpoint
CREATE TABLE "index_weights" (
	"version" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"weights" jsonb NOT NULL,
	"set_at" timestamp with time zone NOT NULL,
	"set_by" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "country_overrides_in_force" ON "country_overrides" USING btree ("iso") WHERE "country_overrides"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "country_overrides_expiry" ON "country_overrides" USING btree ("expires_at") WHERE "country_overrides"."ended_at" is null;
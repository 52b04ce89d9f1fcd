CREATE TABLE "site_alert_evaluations" (
	"batch_id" bigint PRIMARY KEY NOT NULL,
	"alerts" integer NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_alert_target" (
	"id" integer PRIMARY KEY NOT NULL,
	"watchlist_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"actor_name" text NOT NULL,
	"actor_email" text,
	"actor_subject" text,
	"actor_via" text NOT NULL,
	"actor_role" text,
	"address" text,
	"action" text NOT NULL,
	"object" text,
	"status" integer NOT NULL,
	"detail" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "alert_on" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "alert_radius_km" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "alert_min_delta" double precision DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_alert_evaluations" ADD CONSTRAINT "site_alert_evaluations_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_alert_target" ADD CONSTRAINT "site_alert_target_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_at" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_log_object_at" ON "audit_log" USING btree ("object","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_at" ON "audit_log" USING btree ("actor_name","at");
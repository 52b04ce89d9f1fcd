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
CREATE TABLE "alert_ack_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" bigint NOT NULL,
	"revision" integer NOT NULL,
	"disposition" text NOT NULL,
	"note" text,
	"by_name" text NOT NULL,
	"by_subject" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_acks" (
	"alert_id" bigint PRIMARY KEY NOT NULL,
	"disposition" text NOT NULL,
	"note" text,
	"by_name" text NOT NULL,
	"by_subject" text,
	"at" timestamp with time zone NOT NULL,
	"revision" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_reads" (
	"alert_id" bigint NOT NULL,
	"reader" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_reads_reader_alert_id_pk" PRIMARY KEY("reader","alert_id")
);
--> statement-breakpoint
CREATE TABLE "reader_marks" (
	"reader" text PRIMARY KEY NOT NULL,
	"read_through" bigint NOT NULL,
	"marked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digest_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"day" text NOT NULL,
	"message_id" text NOT NULL,
	"body" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "person_settings" (
	"subject" text PRIMARY KEY NOT NULL,
	"email" text,
	"email_enabled" boolean NOT NULL,
	"digest_hour" integer,
	"time_zone" text NOT NULL,
	"quiet_start" integer,
	"quiet_end" integer,
	"version" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "alert_on" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "alert_radius_km" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "alert_min_delta" double precision DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_alert_evaluations" ADD CONSTRAINT "site_alert_evaluations_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_alert_target" ADD CONSTRAINT "site_alert_target_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_ack_history" ADD CONSTRAINT "alert_ack_history_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_acks" ADD CONSTRAINT "alert_acks_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_at" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_log_object_at" ON "audit_log" USING btree ("object","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_at" ON "audit_log" USING btree ("actor_name","at");--> statement-breakpoint
CREATE INDEX "alert_ack_history_alert" ON "alert_ack_history" USING btree ("alert_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "digest_deliveries_once" ON "digest_deliveries" USING btree ("subject","day");--> statement-breakpoint
CREATE UNIQUE INDEX "digest_deliveries_message" ON "digest_deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "digest_deliveries_due" ON "digest_deliveries" USING btree ("state","next_attempt_at");
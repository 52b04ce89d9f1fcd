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
ALTER TABLE "alert_ack_history" ADD CONSTRAINT "alert_ack_history_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_acks" ADD CONSTRAINT "alert_acks_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_ack_history_alert" ON "alert_ack_history" USING btree ("alert_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "digest_deliveries_once" ON "digest_deliveries" USING btree ("subject","day");--> statement-breakpoint
CREATE UNIQUE INDEX "digest_deliveries_message" ON "digest_deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "digest_deliveries_due" ON "digest_deliveries" USING btree ("state","next_attempt_at");
CREATE TABLE "alert_evaluations" (
	"batch_id" bigint PRIMARY KEY NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"alerts" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"watchlist_id" bigint NOT NULL,
	"rule_key" text NOT NULL,
	"kind" text NOT NULL,
	"iso" char(3) NOT NULL,
	"country" text NOT NULL,
	"batch_as_of" timestamp with time zone NOT NULL,
	"message" text NOT NULL,
	"before" jsonb,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"watchlist_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"body" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"delivery_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	CONSTRAINT "delivery_attempts_delivery_id_attempt_pk" PRIMARY KEY("delivery_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "watchlists" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"countries" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"owner" text,
	"webhook_url" text,
	"webhook_format" text DEFAULT 'standard' NOT NULL,
	"webhook_secret" text,
	"webhook_paused_at" timestamp with time zone,
	"webhook_paused_reason" text,
	"email" text,
	"demo" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_evaluations" ADD CONSTRAINT "alert_evaluations_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_once_key" ON "alerts" USING btree ("watchlist_id","rule_key","iso","batch_as_of");--> statement-breakpoint
CREATE INDEX "alerts_watchlist_created" ON "alerts" USING btree ("watchlist_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_message_key" ON "deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "deliveries_due" ON "deliveries" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "watchlists_owner" ON "watchlists" USING btree ("owner");--> statement-breakpoint
CREATE UNIQUE INDEX "watchlists_demo_key" ON "watchlists" USING btree ("demo");
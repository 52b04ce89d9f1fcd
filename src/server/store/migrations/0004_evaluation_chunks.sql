CREATE TABLE "alert_list_failures" (
	"batch_id" bigint NOT NULL,
	"watchlist_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_list_failures_batch_id_watchlist_id_pk" PRIMARY KEY("batch_id","watchlist_id")
);
--> statement-breakpoint
ALTER TABLE "alert_evaluations" ADD COLUMN "pending_after" bigint;--> statement-breakpoint
ALTER TABLE "alert_evaluations" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_list_failures" ADD CONSTRAINT "alert_list_failures_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_list_failures" ADD CONSTRAINT "alert_list_failures_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;
-- No backfill here: one statement over two years of rows held start-up for 10.6 s. Batches
-- recorded before this migration get their row from the background filler
-- (src/server/jobs/batch-scores-fill.ts), a few batches a statement; until then the team view's
-- changes say "computing" (issue 31).
CREATE TABLE "batch_scores" (
	"batch_id" bigint PRIMARY KEY NOT NULL,
	"scores" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_scores" ADD CONSTRAINT "batch_scores_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;

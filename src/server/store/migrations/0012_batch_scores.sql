CREATE TABLE "batch_scores" (
	"batch_id" bigint PRIMARY KEY NOT NULL,
	"scores" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_scores" ADD CONSTRAINT "batch_scores_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Backfill: every batch already recorded gets its compact row from its country rows, as
-- recordBatch writes it (src/server/store/team-index.ts, batchScoresSql), categories in the
-- documented order (src/shared/categories.ts).
INSERT INTO "batch_scores" ("batch_id", "scores")
SELECT r.batch_id, json_object_agg(trim(r.iso), json_build_array(
      case when jsonb_typeof(r.categories->'security'->'score') = 'number' then r.categories->'security'->'score' end,
      case when jsonb_typeof(r.categories->'political'->'score') = 'number' then r.categories->'political'->'score' end,
      case when jsonb_typeof(r.categories->'civil_unrest'->'score') = 'number' then r.categories->'civil_unrest'->'score' end,
      case when jsonb_typeof(r.categories->'crime'->'score') = 'number' then r.categories->'crime'->'score' end,
      case when jsonb_typeof(r.categories->'economic'->'score') = 'number' then r.categories->'economic'->'score' end,
      case when jsonb_typeof(r.categories->'regulatory'->'score') = 'number' then r.categories->'regulatory'->'score' end,
      case when jsonb_typeof(r.categories->'infrastructure'->'score') = 'number' then r.categories->'infrastructure'->'score' end,
      case when jsonb_typeof(r.categories->'cyber'->'score') = 'number' then r.categories->'cyber'->'score' end,
      case when jsonb_typeof(r.categories->'health'->'score') = 'number' then r.categories->'health'->'score' end,
      case when jsonb_typeof(r.categories->'advisory'->'score') = 'number' then r.categories->'advisory'->'score' end))
FROM "country_rows" r
GROUP BY r.batch_id
ON CONFLICT ("batch_id") DO NOTHING;

CREATE TABLE "batch_chain" (
	"position" bigint PRIMARY KEY NOT NULL,
	"batch_id" bigint NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"digest" char(64) NOT NULL,
	"pruned" boolean DEFAULT false NOT NULL,
	CONSTRAINT "batch_chain_batch_id_unique" UNIQUE("batch_id"),
	CONSTRAINT "batch_chain_digest_unique" UNIQUE("digest")
);

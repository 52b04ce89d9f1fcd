CREATE TABLE "country_note_revisions" (
	"note_id" bigint NOT NULL,
	"revision" integer NOT NULL,
	"text" text,
	"author" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "country_note_revisions_note_id_revision_pk" PRIMARY KEY("note_id","revision")
);
--> statement-breakpoint
CREATE TABLE "country_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"iso" char(3) NOT NULL,
	"text" text NOT NULL,
	"author" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "method_decisions" (
	"batch_id" bigint PRIMARY KEY NOT NULL,
	"comparable" boolean NOT NULL,
	"decided_by" text NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"evaluated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "country_note_revisions" ADD CONSTRAINT "country_note_revisions_note_id_country_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."country_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "method_decisions" ADD CONSTRAINT "method_decisions_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "country_notes_iso" ON "country_notes" USING btree ("iso","id" DESC NULLS LAST);
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
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_at" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_log_object_at" ON "audit_log" USING btree ("object","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_at" ON "audit_log" USING btree ("actor_name","at");
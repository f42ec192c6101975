CREATE SCHEMA "audit";
--> statement-breakpoint
CREATE TABLE "audit"."events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"actor_user_id" uuid,
	"ecosystem_id" uuid,
	"organization_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_ecosystem_idx" ON "audit"."events" USING btree ("ecosystem_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_account_idx" ON "audit"."events" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audit"."events"."ecosystem_id" is null;--> statement-breakpoint
CREATE INDEX "audit_events_organization_idx" ON "audit"."events" USING btree ("organization_id","at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audit"."events"."ecosystem_id" is null;--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit"."events" USING btree ("actor_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_actor_user_idx" ON "audit"."events" USING btree ("actor_user_id","at" DESC NULLS LAST) WHERE "audit"."events"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit"."events" USING btree ("target_type","target_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit"."events" USING btree ("at");
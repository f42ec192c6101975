CREATE SCHEMA "persona";
--> statement-breakpoint
CREATE TABLE "persona"."personas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"model_prompt" text DEFAULT '' NOT NULL,
	"voice" text,
	"character" text,
	"examples" text,
	"visibility" text DEFAULT 'private' NOT NULL,
	"service_id" uuid,
	"model" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "persona"."services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"template_id" text,
	"provider_kind" text NOT NULL,
	"name" text NOT NULL,
	"base_url" text NOT NULL,
	"api_key_sealed" text,
	"connect_status" text DEFAULT 'never' NOT NULL,
	"connect_error" text,
	"last_connected_at" timestamp with time zone,
	"models" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"models_fetched_at" timestamp with time zone,
	"documentation_url" text,
	"status_url" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "persona"."personas" ADD CONSTRAINT "personas_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona"."personas" ADD CONSTRAINT "personas_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "persona"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona"."personas" ADD CONSTRAINT "personas_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona"."services" ADD CONSTRAINT "services_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona"."services" ADD CONSTRAINT "services_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personas_ecosystem_slug_uq" ON "persona"."personas" USING btree ("ecosystem_id","slug");--> statement-breakpoint
CREATE INDEX "personas_public_idx" ON "persona"."personas" USING btree ("created_at") WHERE "persona"."personas"."visibility" = 'public';--> statement-breakpoint
CREATE INDEX "personas_creator_idx" ON "persona"."personas" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "personas_slug_idx" ON "persona"."personas" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "services_ecosystem_idx" ON "persona"."services" USING btree ("ecosystem_id","created_at");
CREATE SCHEMA "site";
--> statement-breakpoint
CREATE TABLE "site"."services" (
	"ecosystem_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean NOT NULL,
	"config_sealed" text NOT NULL,
	"config_keys" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_ecosystem_id_slug_pk" PRIMARY KEY("ecosystem_id","slug")
);
--> statement-breakpoint
ALTER TABLE "site"."services" ADD CONSTRAINT "services_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;
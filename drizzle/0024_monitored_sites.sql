CREATE SCHEMA "monitored_sites";
--> statement-breakpoint
CREATE TABLE "monitored_sites"."checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"checked_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ok" boolean NOT NULL,
	"status_code" integer,
	"latency_ms" integer,
	"error" text,
	"tls_days_left" integer
);
--> statement-breakpoint
CREATE TABLE "monitored_sites"."sites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"interval_minutes" integer NOT NULL,
	"expected_status" integer DEFAULT 200 NOT NULL,
	"keyword" text,
	"timeout_ms" integer DEFAULT 10000 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"state" text DEFAULT 'unknown' NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"next_check_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_checked_at" timestamp (3) with time zone,
	"last_status_code" integer,
	"last_latency_ms" integer,
	"last_error" text,
	"tls_days_left" integer,
	"state_changed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitored_sites"."checks" ADD CONSTRAINT "checks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "monitored_sites"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitored_sites"."sites" ADD CONSTRAINT "sites_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checks_site_time_idx" ON "monitored_sites"."checks" USING btree ("site_id","checked_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "checks_time_idx" ON "monitored_sites"."checks" USING btree ("checked_at");--> statement-breakpoint
CREATE INDEX "sites_ecosystem_idx" ON "monitored_sites"."sites" USING btree ("ecosystem_id","created_at");--> statement-breakpoint
CREATE INDEX "sites_due_idx" ON "monitored_sites"."sites" USING btree ("next_check_at");
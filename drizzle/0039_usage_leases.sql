CREATE TABLE "billing"."usage_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"period" text NOT NULL,
	"units" bigint NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing"."usage_leases" ADD CONSTRAINT "usage_leases_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."usage_leases" ADD CONSTRAINT "usage_leases_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_leases_counter_idx" ON "billing"."usage_leases" USING btree ("customer_id","feature","period");
CREATE TABLE "site"."feed_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "site"."feed_items_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"source" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"actor_id" text,
	"metadata" text,
	"is_read" boolean DEFAULT false NOT NULL,
	"read_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site"."feed_items" ADD CONSTRAINT "feed_items_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site"."feed_items" ADD CONSTRAINT "feed_items_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feed_items_customer_idx" ON "site"."feed_items" USING btree ("customer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feed_items_unread_idx" ON "site"."feed_items" USING btree ("customer_id") WHERE not "site"."feed_items"."is_read";--> statement-breakpoint
CREATE INDEX "feed_items_seq_idx" ON "site"."feed_items" USING btree ("customer_id","seq");--> statement-breakpoint
CREATE INDEX "feed_items_read_idx" ON "site"."feed_items" USING btree ("read_at") WHERE "site"."feed_items"."is_read";
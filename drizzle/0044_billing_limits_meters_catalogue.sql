CREATE TABLE "billing"."meter_outbox" (
	"ecosystem_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"meter" text NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"value" bigint NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"failed" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "meter_outbox_ecosystem_id_idempotency_key_pk" PRIMARY KEY("ecosystem_id","idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "billing"."features" ADD COLUMN "allow_negative" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing"."features" ADD COLUMN "stripe_meter" text;--> statement-breakpoint
ALTER TABLE "billing"."plans" ADD COLUMN "public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing"."subscriptions" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "billing"."meter_outbox" ADD CONSTRAINT "meter_outbox_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."meter_outbox" ADD CONSTRAINT "meter_outbox_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_outbox_pending_idx" ON "billing"."meter_outbox" USING btree ("ecosystem_id","at") WHERE sent_at is null and failed is null;--> statement-breakpoint
CREATE INDEX "meter_outbox_customer_idx" ON "billing"."meter_outbox" USING btree ("ecosystem_id","customer_id","feature","at");--> statement-breakpoint
CREATE INDEX "subscriptions_stripe_customer_idx" ON "billing"."subscriptions" USING btree ("ecosystem_id","stripe_customer_id");
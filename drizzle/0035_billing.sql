CREATE SCHEMA "billing";
--> statement-breakpoint
CREATE TABLE "billing"."assignments" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"plan" text NOT NULL,
	"assigned_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."features" (
	"ecosystem_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"reset" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "features_ecosystem_id_key_pk" PRIMARY KEY("ecosystem_id","key")
);
--> statement-breakpoint
CREATE TABLE "billing"."invoices" (
	"stripe_invoice_id" text PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text,
	"status" text NOT NULL,
	"total" bigint NOT NULL,
	"currency" text NOT NULL,
	"hosted_invoice_url" text,
	"period_start" timestamp (3) with time zone,
	"period_end" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."plans" (
	"ecosystem_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"prices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"entitlements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_ecosystem_id_key_pk" PRIMARY KEY("ecosystem_id","key")
);
--> statement-breakpoint
CREATE TABLE "billing"."settings" (
	"ecosystem_id" uuid PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'manual' NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"secrets_sealed" text,
	"config_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."stripe_customers" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"stripe_customer_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."stripe_events" (
	"event_id" text NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_events_ecosystem_id_event_id_pk" PRIMARY KEY("ecosystem_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "billing"."subscriptions" (
	"stripe_subscription_id" text PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"plan" text,
	"status" text NOT NULL,
	"current_period_start" timestamp (3) with time zone,
	"current_period_end" timestamp (3) with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"trial_end" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."usage_counters" (
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"period" text NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_counters_customer_id_feature_period_pk" PRIMARY KEY("customer_id","feature","period")
);
--> statement-breakpoint
CREATE TABLE "billing"."usage_events" (
	"ecosystem_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"value" bigint NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "usage_events_ecosystem_id_idempotency_key_pk" PRIMARY KEY("ecosystem_id","idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "billing"."assignments" ADD CONSTRAINT "assignments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."assignments" ADD CONSTRAINT "assignments_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."features" ADD CONSTRAINT "features_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."invoices" ADD CONSTRAINT "invoices_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."invoices" ADD CONSTRAINT "invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."plans" ADD CONSTRAINT "plans_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."settings" ADD CONSTRAINT "settings_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."stripe_customers" ADD CONSTRAINT "stripe_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."stripe_customers" ADD CONSTRAINT "stripe_customers_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."stripe_events" ADD CONSTRAINT "stripe_events_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."subscriptions" ADD CONSTRAINT "subscriptions_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."usage_counters" ADD CONSTRAINT "usage_counters_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."usage_counters" ADD CONSTRAINT "usage_counters_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."usage_events" ADD CONSTRAINT "usage_events_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing"."usage_events" ADD CONSTRAINT "usage_events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_customer_idx" ON "billing"."invoices" USING btree ("ecosystem_id","customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stripe_customers_stripe_uq" ON "billing"."stripe_customers" USING btree ("ecosystem_id","stripe_customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_customer_idx" ON "billing"."subscriptions" USING btree ("ecosystem_id","customer_id");
CREATE SCHEMA "storage";
--> statement-breakpoint
CREATE TABLE "storage"."attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"owner_type" text DEFAULT 'standalone' NOT NULL,
	"owner_id" text,
	"object_key" text NOT NULL,
	"storage_kind" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_hash" text NOT NULL,
	"width" integer,
	"height" integer,
	"duration_ms" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "attachments_status_ck" CHECK ("storage"."attachments"."status" in ('pending', 'ready')),
	CONSTRAINT "attachments_size_ck" CHECK ("storage"."attachments"."size_bytes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "storage"."quotas" (
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"quota_bytes" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotas_ecosystem_id_customer_id_pk" PRIMARY KEY("ecosystem_id","customer_id"),
	CONSTRAINT "quotas_bytes_ck" CHECK ("storage"."quotas"."quota_bytes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "storage"."usage" (
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_ecosystem_id_customer_id_pk" PRIMARY KEY("ecosystem_id","customer_id"),
	CONSTRAINT "usage_used_ck" CHECK ("storage"."usage"."used_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "storage"."attachments" ADD CONSTRAINT "attachments_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage"."attachments" ADD CONSTRAINT "attachments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage"."quotas" ADD CONSTRAINT "quotas_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage"."quotas" ADD CONSTRAINT "quotas_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage"."usage" ADD CONSTRAINT "usage_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage"."usage" ADD CONSTRAINT "usage_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attachments_object_key_uq" ON "storage"."attachments" USING btree ("object_key");--> statement-breakpoint
CREATE INDEX "attachments_customer_idx" ON "storage"."attachments" USING btree ("ecosystem_id","customer_id","created_at");--> statement-breakpoint
CREATE INDEX "attachments_owner_idx" ON "storage"."attachments" USING btree ("ecosystem_id","customer_id","owner_type","owner_id");--> statement-breakpoint
CREATE INDEX "attachments_hash_idx" ON "storage"."attachments" USING btree ("ecosystem_id","customer_id","content_hash") WHERE status = 'ready' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "attachments_pending_idx" ON "storage"."attachments" USING btree ("created_at") WHERE status = 'pending' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "attachments_deleted_idx" ON "storage"."attachments" USING btree ("deleted_at") WHERE deleted_at is not null;
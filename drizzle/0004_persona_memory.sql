CREATE SCHEMA "persona_memory";
--> statement-breakpoint
CREATE TABLE "persona_memory"."memories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid,
	"persona_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"slug" text NOT NULL,
	"memory_type" text NOT NULL,
	"description" text NOT NULL,
	"body" text NOT NULL,
	"subject_table" text,
	"subject_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"supersedes_id" uuid,
	"source" text NOT NULL,
	"confidence" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"recall_count" integer DEFAULT 0 NOT NULL,
	"last_recalled_at" timestamp with time zone,
	"embedding" real[],
	"embedding_model" text,
	"embedding_failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "memories_scope_owner_ck" CHECK (("persona_memory"."memories"."scope" = 'persona') = ("persona_memory"."memories"."customer_id" is null)),
	CONSTRAINT "memories_confidence_ck" CHECK ("persona_memory"."memories"."confidence" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "persona_memory"."memories" ADD CONSTRAINT "memories_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_memory"."memories" ADD CONSTRAINT "memories_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_memory"."memories" ADD CONSTRAINT "memories_supersedes_id_memories_id_fk" FOREIGN KEY ("supersedes_id") REFERENCES "persona_memory"."memories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memories_persona_idx" ON "persona_memory"."memories" USING btree ("owner_id","persona_id","customer_id");--> statement-breakpoint
CREATE INDEX "memories_created_idx" ON "persona_memory"."memories" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "memories_embedding_model_idx" ON "persona_memory"."memories" USING btree ("embedding_model");--> statement-breakpoint
CREATE INDEX "memories_customer_idx" ON "persona_memory"."memories" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "memories_active_slug_uq" ON "persona_memory"."memories" USING btree ("owner_id","persona_id",coalesce("customer_id", '00000000-0000-0000-0000-000000000000'::uuid),"slug") WHERE "persona_memory"."memories"."status" = 'active' and "persona_memory"."memories"."deleted_at" is null;
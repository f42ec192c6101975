CREATE SCHEMA "data";
--> statement-breakpoint
CREATE SCHEMA "userdata";
--> statement-breakpoint
CREATE TABLE "data"."document_blocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"document_id" uuid NOT NULL,
	"block_type" text NOT NULL,
	"position" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left("content", 100000))) STORED
);
--> statement-breakpoint
CREATE TABLE "data"."documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left("title", 100000))) STORED
);
--> statement-breakpoint
CREATE TABLE "userdata"."notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"occurred_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"subject_table" text,
	"subject_id" text,
	"deleted_at" timestamp (3) with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left(coalesce("title", '') || ' ' || coalesce("body", ''), 100000))) STORED
);
--> statement-breakpoint
ALTER TABLE "data"."document_blocks" ADD CONSTRAINT "document_blocks_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data"."document_blocks" ADD CONSTRAINT "document_blocks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data"."document_blocks" ADD CONSTRAINT "document_blocks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "data"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data"."documents" ADD CONSTRAINT "documents_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data"."documents" ADD CONSTRAINT "documents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "userdata"."notes" ADD CONSTRAINT "notes_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "userdata"."notes" ADD CONSTRAINT "notes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_blocks_document_idx" ON "data"."document_blocks" USING btree ("document_id","position" collate "C");--> statement-breakpoint
CREATE INDEX "document_blocks_search_idx" ON "data"."document_blocks" USING gin ("search");--> statement-breakpoint
CREATE INDEX "documents_customer_idx" ON "data"."documents" USING btree ("owner_id","customer_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_search_idx" ON "data"."documents" USING gin ("search");--> statement-breakpoint
CREATE INDEX "notes_customer_idx" ON "userdata"."notes" USING btree ("owner_id","customer_id","occurred_at");--> statement-breakpoint
CREATE INDEX "notes_subject_idx" ON "userdata"."notes" USING btree ("owner_id","subject_table","subject_id");--> statement-breakpoint
CREATE INDEX "notes_search_idx" ON "userdata"."notes" USING gin ("search");
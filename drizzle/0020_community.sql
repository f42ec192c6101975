CREATE SCHEMA "community";
--> statement-breakpoint
CREATE TABLE "community"."badges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"criteria_type" text NOT NULL,
	"criteria_threshold" integer NOT NULL,
	"point_value" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community"."categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community"."levels" (
	"ecosystem_id" uuid NOT NULL,
	"name" text NOT NULL,
	"min_points" integer NOT NULL,
	CONSTRAINT "levels_ecosystem_id_min_points_pk" PRIMARY KEY("ecosystem_id","min_points")
);
--> statement-breakpoint
CREATE TABLE "community"."member_stats" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"threads_created" integer DEFAULT 0 NOT NULL,
	"replies_created" integer DEFAULT 0 NOT NULL,
	"replies_received" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community"."point_boards" (
	"ecosystem_id" uuid NOT NULL,
	"period" text NOT NULL,
	"bucket" timestamp (3) with time zone NOT NULL,
	"customers" integer NOT NULL,
	CONSTRAINT "point_boards_ecosystem_id_period_bucket_pk" PRIMARY KEY("ecosystem_id","period","bucket")
);
--> statement-breakpoint
CREATE TABLE "community"."point_rules" (
	"ecosystem_id" uuid PRIMARY KEY NOT NULL,
	"thread_created" integer NOT NULL,
	"reply_created" integer NOT NULL,
	"reply_received" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community"."point_totals" (
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"period" text NOT NULL,
	"bucket" timestamp (3) with time zone NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "point_totals_customer_id_period_bucket_pk" PRIMARY KEY("customer_id","period","bucket")
);
--> statement-breakpoint
CREATE TABLE "community"."points" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community"."replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"thread_id" uuid NOT NULL,
	"body" text NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left("body", 100000)) || to_tsvector('english', left("body", 100000))) STORED
);
--> statement-breakpoint
CREATE TABLE "community"."threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"category_id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left(coalesce("title", '') || ' ' || coalesce("body", ''), 100000)) || to_tsvector('english', left(coalesce("title", '') || ' ' || coalesce("body", ''), 100000))) STORED
);
--> statement-breakpoint
CREATE TABLE "community"."user_badges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"badge_id" uuid NOT NULL,
	"awarded_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data"."document_blocks" drop column "search";--> statement-breakpoint
ALTER TABLE "data"."document_blocks" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left("content", 100000)) || to_tsvector('english', left("content", 100000))) STORED;--> statement-breakpoint
ALTER TABLE "userdata"."notes" drop column "search";--> statement-breakpoint
ALTER TABLE "userdata"."notes" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left(coalesce("title", '') || ' ' || coalesce("body", ''), 100000)) || to_tsvector('english', left(coalesce("title", '') || ' ' || coalesce("body", ''), 100000))) STORED;--> statement-breakpoint
ALTER TABLE "customer"."customers" ADD COLUMN "avatar_url" text;--> statement-breakpoint
ALTER TABLE "community"."badges" ADD CONSTRAINT "badges_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."categories" ADD CONSTRAINT "categories_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."categories" ADD CONSTRAINT "categories_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."levels" ADD CONSTRAINT "levels_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."member_stats" ADD CONSTRAINT "member_stats_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."member_stats" ADD CONSTRAINT "member_stats_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."point_boards" ADD CONSTRAINT "point_boards_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."point_rules" ADD CONSTRAINT "point_rules_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."point_totals" ADD CONSTRAINT "point_totals_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."point_totals" ADD CONSTRAINT "point_totals_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."points" ADD CONSTRAINT "points_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."points" ADD CONSTRAINT "points_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."replies" ADD CONSTRAINT "replies_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."replies" ADD CONSTRAINT "replies_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."replies" ADD CONSTRAINT "replies_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "community"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."threads" ADD CONSTRAINT "threads_owner_id_ecosystems_id_fk" FOREIGN KEY ("owner_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."threads" ADD CONSTRAINT "threads_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."threads" ADD CONSTRAINT "threads_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "community"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."user_badges" ADD CONSTRAINT "user_badges_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."user_badges" ADD CONSTRAINT "user_badges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community"."user_badges" ADD CONSTRAINT "user_badges_badge_id_badges_id_fk" FOREIGN KEY ("badge_id") REFERENCES "community"."badges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badges_criteria_idx" ON "community"."badges" USING btree ("ecosystem_id","criteria_type","criteria_threshold");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_uq" ON "community"."categories" USING btree ("owner_id","slug");--> statement-breakpoint
CREATE INDEX "point_totals_board_idx" ON "community"."point_totals" USING btree ("ecosystem_id","period","bucket","total" DESC NULLS LAST,"customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "points_source_uq" ON "community"."points" USING btree ("customer_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "points_customer_idx" ON "community"."points" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "replies_thread_idx" ON "community"."replies" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "replies_search_idx" ON "community"."replies" USING gin ("search");--> statement-breakpoint
CREATE INDEX "threads_list_idx" ON "community"."threads" USING btree ("owner_id","created_at") WHERE "community"."threads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "threads_category_idx" ON "community"."threads" USING btree ("owner_id","category_id");--> statement-breakpoint
CREATE INDEX "threads_search_idx" ON "community"."threads" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "user_badges_uq" ON "community"."user_badges" USING btree ("customer_id","badge_id");--> statement-breakpoint
CREATE INDEX "document_blocks_search_idx" ON "data"."document_blocks" USING gin ("search");--> statement-breakpoint
CREATE INDEX "notes_search_idx" ON "userdata"."notes" USING gin ("search");

CREATE SCHEMA "registry";
--> statement-breakpoint
CREATE SCHEMA "team";
--> statement-breakpoint
CREATE SCHEMA "customer";
--> statement-breakpoint
CREATE TABLE "registry"."ecosystems" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text,
	"rdid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry"."identifiers" (
	"rdid" text PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry"."namespaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"slug" text,
	"name" text,
	"rdid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry"."organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"namespace_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team"."members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team"."teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer"."refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer"."sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "customer"."customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"external_id" text,
	"email" text,
	"phone" text,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registry"."ecosystems" ADD CONSTRAINT "ecosystems_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "registry"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry"."organizations" ADD CONSTRAINT "organizations_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "registry"."namespaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team"."members" ADD CONSTRAINT "members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "team"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team"."members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team"."teams" ADD CONSTRAINT "teams_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "registry"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer"."refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "customer"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer"."sessions" ADD CONSTRAINT "sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer"."customers" ADD CONSTRAINT "customers_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ecosystems_org_slug_uq" ON "registry"."ecosystems" USING btree ("organization_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "ecosystems_rdid_uq" ON "registry"."ecosystems" USING btree ("rdid");--> statement-breakpoint
CREATE INDEX "identifiers_entity_idx" ON "registry"."identifiers" USING btree ("entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_owner_uq" ON "registry"."namespaces" USING btree ("owner_kind","owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_slug_uq" ON "registry"."namespaces" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_rdid_uq" ON "registry"."namespaces" USING btree ("rdid");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_slug_uq" ON "registry"."organizations" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "members_team_user_uq" ON "team"."members" USING btree ("team_id","user_id");--> statement-breakpoint
CREATE INDEX "members_user_idx" ON "team"."members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_org_uq" ON "team"."teams" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "customer"."refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "customer"."refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sessions_customer_idx" ON "customer"."sessions" USING btree ("customer_id") WHERE "customer"."sessions"."revoked_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_external_uq" ON "customer"."customers" USING btree ("ecosystem_id","external_id");--> statement-breakpoint
CREATE INDEX "customers_email_idx" ON "customer"."customers" USING btree ("ecosystem_id",lower("email"));
CREATE SCHEMA "oauth";
--> statement-breakpoint
CREATE TABLE "oauth"."clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth"."codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_hash" text NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"scopes" text[] NOT NULL,
	"code_challenge" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"grant_id" uuid
);
--> statement-breakpoint
CREATE TABLE "oauth"."grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "oauth"."refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"grant_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "oauth"."clients" ADD CONSTRAINT "clients_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth"."codes" ADD CONSTRAINT "codes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "oauth"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth"."codes" ADD CONSTRAINT "codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth"."codes" ADD CONSTRAINT "codes_grant_id_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "oauth"."grants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth"."grants" ADD CONSTRAINT "grants_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "oauth"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth"."grants" ADD CONSTRAINT "grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth"."refresh_tokens" ADD CONSTRAINT "refresh_tokens_grant_id_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "oauth"."grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_client_id_uq" ON "oauth"."clients" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "clients_owner_idx" ON "oauth"."clients" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "codes_hash_uq" ON "oauth"."codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "codes_expires_idx" ON "oauth"."codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "grants_user_idx" ON "oauth"."grants" USING btree ("user_id") WHERE "oauth"."grants"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "grants_client_idx" ON "oauth"."grants" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_refresh_tokens_hash_uq" ON "oauth"."refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "oauth_refresh_tokens_grant_idx" ON "oauth"."refresh_tokens" USING btree ("grant_id");
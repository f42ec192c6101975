CREATE TABLE "auth"."mfa_failures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"opens_notice" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth"."mfa_failures" ADD CONSTRAINT "mfa_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_failures_user_at_idx" ON "auth"."mfa_failures" USING btree ("user_id","at");
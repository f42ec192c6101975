CREATE TABLE "messaging"."send_claims" (
	"key" text PRIMARY KEY NOT NULL,
	"message_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid,
	"claimed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "messaging"."send_claims" ADD CONSTRAINT "send_claims_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "send_claims_claimed_idx" ON "messaging"."send_claims" USING btree ("claimed_at");
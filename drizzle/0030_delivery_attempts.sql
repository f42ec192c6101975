CREATE TABLE "integrations"."delivery_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL,
	"response_code" integer,
	"duration_ms" integer,
	"error" text,
	"response_body" text
);
--> statement-breakpoint
ALTER TABLE "integrations"."delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "integrations"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "integrations"."delivery_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE INDEX "deliveries_webhook_status_idx" ON "integrations"."deliveries" USING btree ("webhook_id","status","created_at" DESC NULLS LAST);
DROP INDEX "chat"."messages_customer_idx";--> statement-breakpoint
CREATE INDEX "messages_customer_recent_idx" ON "chat"."messages" USING btree ("customer_id","owner_id","created_at");
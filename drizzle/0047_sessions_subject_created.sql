CREATE INDEX "sessions_user_created_idx" ON "auth"."sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_customer_created_idx" ON "customer"."sessions" USING btree ("customer_id","created_at");--> statement-breakpoint
DROP INDEX "auth"."sessions_user_idx";--> statement-breakpoint
DROP INDEX "customer"."sessions_customer_idx";

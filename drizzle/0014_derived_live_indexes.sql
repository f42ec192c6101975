DROP INDEX "data"."documents_customer_idx";--> statement-breakpoint
DROP INDEX "userdata"."notes_customer_idx";--> statement-breakpoint
CREATE INDEX "documents_customer_idx" ON "data"."documents" USING btree ("owner_id","customer_id","created_at") WHERE "data"."documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "notes_customer_idx" ON "userdata"."notes" USING btree ("owner_id","customer_id","occurred_at") WHERE "userdata"."notes"."deleted_at" is null;
ALTER TABLE "system"."backups" ADD COLUMN "encrypted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "system"."backups" ADD COLUMN "restored_at" timestamp (3) with time zone;
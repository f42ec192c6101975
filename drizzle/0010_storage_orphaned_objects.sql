CREATE TABLE "storage"."orphaned_objects" (
	"object_key" text PRIMARY KEY NOT NULL,
	"storage_kind" text NOT NULL,
	"attachment_created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "orphaned_objects_queue_idx" ON "storage"."orphaned_objects" USING btree ("storage_kind","attempts","deleted_at");
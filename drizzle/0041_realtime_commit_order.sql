CREATE TABLE "realtime"."commits" (
	"tx" "xid8" PRIMARY KEY NOT NULL,
	"pos" bigint NOT NULL,
	"committed_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realtime"."epoch" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "realtime"."changes_at_idx";--> statement-breakpoint
ALTER TABLE "realtime"."purged" ADD COLUMN "pos" bigint NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "commits_pos_idx" ON "realtime"."commits" USING btree ("pos");--> statement-breakpoint
CREATE INDEX "commits_committed_idx" ON "realtime"."commits" USING btree ("committed_at");--> statement-breakpoint
ALTER TABLE "realtime"."purged" DROP COLUMN "tx";
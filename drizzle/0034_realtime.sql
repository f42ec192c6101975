CREATE SCHEMA "realtime";
--> statement-breakpoint
CREATE TABLE "realtime"."changes" (
	"tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "realtime"."changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"topic" text NOT NULL,
	"key" text,
	"ecosystem_id" uuid NOT NULL,
	"customer_id" uuid,
	"audience" text NOT NULL,
	"op" text NOT NULL,
	"row_id" text NOT NULL,
	"record" jsonb,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changes_tx_seq_pk" PRIMARY KEY("tx","seq")
);
--> statement-breakpoint
CREATE TABLE "realtime"."purged" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"tx" "xid8" NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realtime"."tickets" (
	"hash" text PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"session_id" uuid,
	"api_token_id" uuid,
	"credential_expires_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "changes_ecosystem_idx" ON "realtime"."changes" USING btree ("ecosystem_id","tx","seq");--> statement-breakpoint
CREATE INDEX "changes_at_idx" ON "realtime"."changes" USING btree ("at");--> statement-breakpoint
CREATE INDEX "tickets_expires_idx" ON "realtime"."tickets" USING btree ("expires_at");
CREATE TABLE "notifications"."reply_emails" (
	"customer_id" uuid NOT NULL,
	"thread_id" text NOT NULL,
	"last_emailed_at" timestamp (3) with time zone NOT NULL,
	"digest_queued" boolean DEFAULT false NOT NULL,
	CONSTRAINT "reply_emails_customer_id_thread_id_pk" PRIMARY KEY("customer_id","thread_id")
);
--> statement-breakpoint
ALTER TABLE "notifications"."reply_emails" ADD CONSTRAINT "reply_emails_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;
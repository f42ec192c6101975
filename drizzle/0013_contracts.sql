CREATE SCHEMA "contract";
--> statement-breakpoint
CREATE TABLE "contract"."rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"customer_id" uuid,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract"."unique_values" (
	"contract_id" uuid NOT NULL,
	"column" text NOT NULL,
	"value" text NOT NULL,
	"row_id" uuid NOT NULL,
	CONSTRAINT "unique_values_contract_id_column_value_pk" PRIMARY KEY("contract_id","column","value")
);
--> statement-breakpoint
CREATE TABLE "contract"."contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"name" text NOT NULL,
	"columns" jsonb NOT NULL,
	"dropped_columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"access" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract"."rows" ADD CONSTRAINT "rows_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract"."rows" ADD CONSTRAINT "rows_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "contract"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract"."rows" ADD CONSTRAINT "rows_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customer"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract"."unique_values" ADD CONSTRAINT "unique_values_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "contract"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract"."unique_values" ADD CONSTRAINT "unique_values_row_id_rows_id_fk" FOREIGN KEY ("row_id") REFERENCES "contract"."rows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract"."contracts" ADD CONSTRAINT "contracts_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "registry"."ecosystems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rows_contract_idx" ON "contract"."rows" USING btree ("contract_id","created_at");--> statement-breakpoint
CREATE INDEX "rows_customer_idx" ON "contract"."rows" USING btree ("contract_id","customer_id");--> statement-breakpoint
CREATE INDEX "rows_data_idx" ON "contract"."rows" USING gin ("data" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "unique_values_row_idx" ON "contract"."unique_values" USING btree ("row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_ecosystem_name_uq" ON "contract"."contracts" USING btree ("ecosystem_id","name");
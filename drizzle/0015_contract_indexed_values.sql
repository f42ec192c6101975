CREATE TABLE "contract"."indexed_values" (
	"contract_id" uuid NOT NULL,
	"row_id" uuid NOT NULL,
	"column" text NOT NULL,
	"num" numeric,
	"at" timestamp (3) with time zone,
	"txt" text,
	CONSTRAINT "indexed_values_row_id_column_pk" PRIMARY KEY("row_id","column")
);
--> statement-breakpoint
ALTER TABLE "contract"."indexed_values" ADD CONSTRAINT "indexed_values_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "contract"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract"."indexed_values" ADD CONSTRAINT "indexed_values_row_id_rows_id_fk" FOREIGN KEY ("row_id") REFERENCES "contract"."rows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "indexed_values_num_idx" ON "contract"."indexed_values" USING btree ("contract_id","column","num");--> statement-breakpoint
CREATE INDEX "indexed_values_at_idx" ON "contract"."indexed_values" USING btree ("contract_id","column","at");--> statement-breakpoint
CREATE INDEX "indexed_values_txt_idx" ON "contract"."indexed_values" USING btree ("contract_id","column","txt");
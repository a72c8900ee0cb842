CREATE TABLE "fee_rules" (
	"scope" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"rate" numeric(5, 4) NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_rules_scope_subject_unique" UNIQUE("scope","subject"),
	CONSTRAINT "fee_rules_rate" CHECK ("fee_rules"."rate" between 0 and 0.5),
	CONSTRAINT "fee_rules_scope" CHECK ("fee_rules"."scope" in ('default', 'category', 'seller'))
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"source_key" text NOT NULL,
	"order_id" uuid,
	"order_item_id" uuid,
	"refund_id" uuid,
	"commission_id" uuid,
	"payout_id" uuid,
	"memo" text NOT NULL,
	"created_by" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_sourceKey_unique" UNIQUE("source_key")
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"order_item_id" uuid,
	CONSTRAINT "journal_lines_amount" CHECK ("journal_lines"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner_id" text,
	"jurisdiction" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind" CHECK (kind in ('clearing', 'platform_fees', 'platform_sales', 'rounding', 'seller_pending', 'seller_available', 'reseller_pending', 'reseller_available', 'tax', 'provider_fees', 'refunds_payable', 'payouts_in_transit'))
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"jurisdiction" text PRIMARY KEY NOT NULL,
	"rate" numeric(6, 4) NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_rate" CHECK ("tax_rates"."rate" between 0 and 0.5)
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "tax" numeric(14, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "tax_rate" numeric(6, 4) DEFAULT '0.0500' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "fee_rate" numeric(5, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "fee" numeric(14, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "settles_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_company" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_tax_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_jurisdiction" text DEFAULT 'AE';--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_label" text DEFAULT 'UAE VAT' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate" numeric(6, 4) DEFAULT '0.0500' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reverse_charge" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_note" text;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journal_entries_kind_occurred_at_index" ON "journal_entries" USING btree ("kind","occurred_at");--> statement-breakpoint
CREATE INDEX "journal_entries_order_id_index" ON "journal_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "journal_entries_payout_id_index" ON "journal_entries" USING btree ("payout_id");--> statement-breakpoint
CREATE INDEX "journal_lines_account_id_index" ON "journal_lines" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "journal_lines_entry_id_index" ON "journal_lines" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "journal_lines_order_item_id_index" ON "journal_lines" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "ledger_accounts_owner_id_index" ON "ledger_accounts" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "order_items_settles_at_index" ON "order_items" USING btree ("settles_at");--> statement-breakpoint
CREATE FUNCTION "ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are immutable: % on % refused; book a correcting entry instead', TG_OP, TG_TABLE_NAME;
END $$;
--> statement-breakpoint
CREATE TRIGGER "journal_entries_immutable" BEFORE UPDATE OR DELETE ON "journal_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "journal_lines_immutable" BEFORE UPDATE OR DELETE ON "journal_lines" FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_change"();
--> statement-breakpoint
CREATE FUNCTION "journal_entry_balances"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
  SELECT coalesce(sum("amount"), 0) INTO total FROM "journal_lines" WHERE "entry_id" = NEW."entry_id";
  IF total <> 0 THEN
    RAISE EXCEPTION 'journal entry % does not balance: its lines sum to %', NEW."entry_id", total;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "journal_lines_balance" AFTER INSERT ON "journal_lines" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "journal_entry_balances"();

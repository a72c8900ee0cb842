CREATE TABLE "refund_payouts" (
	"refund_id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"payment_id" uuid,
	"provider" text,
	"destination" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"state" text NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"provider_refund_ref" text,
	"failure_reason" text,
	"transfer_reference" text,
	"transferred_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "refund_payouts_state" CHECK ("refund_payouts"."state" in ('pending', 'succeeded', 'failed', 'awaiting_transfer')),
	CONSTRAINT "refund_payouts_destination" CHECK ("refund_payouts"."destination" in ('card', 'paypal', 'bank')),
	CONSTRAINT "refund_payouts_amount" CHECK ("refund_payouts"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bank_transfer_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"amount_due" numeric(14, 4) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"expired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_transfer_orders_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "bank_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"amount" numeric(14, 4) NOT NULL,
	"received_on" date NOT NULL,
	"bank_reference" text NOT NULL,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_transfers_orderId_bankReference_unique" UNIQUE("order_id","bank_reference"),
	CONSTRAINT "bank_transfers_amount" CHECK ("bank_transfers"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_method";--> statement-breakpoint
ALTER TABLE "refund_payouts" ADD CONSTRAINT "refund_payouts_refund_id_refund_requests_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refund_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_payouts" ADD CONSTRAINT "refund_payouts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_payouts" ADD CONSTRAINT "refund_payouts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_orders" ADD CONSTRAINT "bank_transfer_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_payouts_state_index" ON "refund_payouts" USING btree ("state");--> statement-breakpoint
CREATE INDEX "refund_payouts_order_id_index" ON "refund_payouts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refund_payouts_provider_provider_refund_ref_index" ON "refund_payouts" USING btree ("provider","provider_refund_ref");--> statement-breakpoint
CREATE INDEX "bank_transfer_orders_due_at_index" ON "bank_transfer_orders" USING btree ("due_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method" CHECK ("orders"."payment_method" in ('stripe', 'paypal', 'apple-pay', 'bank-transfer'));
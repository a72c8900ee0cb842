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
ALTER TABLE "bank_transfer_orders" ADD CONSTRAINT "bank_transfer_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_transfer_orders_due_at_index" ON "bank_transfer_orders" USING btree ("due_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method" CHECK ("orders"."payment_method" in ('stripe', 'paypal', 'apple-pay', 'bank-transfer'));
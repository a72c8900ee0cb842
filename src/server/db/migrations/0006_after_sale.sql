CREATE TABLE "commissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_item_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"reseller_id" text NOT NULL,
	"product_id" uuid,
	"rate" numeric(5, 4) NOT NULL,
	"amount" numeric(14, 4) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"eligible_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commissions_orderItemId_unique" UNIQUE("order_item_id"),
	CONSTRAINT "commissions_status" CHECK ("commissions"."status" in ('pending', 'approved', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"order_item_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"product_id" uuid,
	"product_name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renews_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "licenses_key_unique" UNIQUE("key"),
	CONSTRAINT "licenses_status" CHECK ("licenses"."status" in ('active', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "referral_clicks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reseller_id" text NOT NULL,
	"product_id" uuid NOT NULL,
	"visitor_key" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_clicks_resellerId_productId_visitorKey_day_unique" UNIQUE("reseller_id","product_id","visitor_key","day")
);
--> statement-breakpoint
CREATE TABLE "refund_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_item_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"buyer_id" text NOT NULL,
	"seller_id" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"seller_due_at" timestamp with time zone NOT NULL,
	"seller_note" text,
	"platform_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "refund_requests_orderItemId_unique" UNIQUE("order_item_id"),
	CONSTRAINT "refund_requests_status" CHECK ("refund_requests"."status" in ('requested', 'seller_rejected', 'escalated', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "reseller_codes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_status";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "commission_rate" numeric(5, 4) DEFAULT '0.1000' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "seller_id" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "refund_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_reseller_id_users_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_clicks" ADD CONSTRAINT "referral_clicks_reseller_id_users_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_clicks" ADD CONSTRAINT "referral_clicks_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_codes" ADD CONSTRAINT "reseller_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commissions_reseller_id_created_at_index" ON "commissions" USING btree ("reseller_id","created_at");--> statement-breakpoint
CREATE INDEX "commissions_status_eligible_at_index" ON "commissions" USING btree ("status","eligible_at");--> statement-breakpoint
CREATE INDEX "licenses_user_id_issued_at_index" ON "licenses" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE INDEX "licenses_order_item_id_index" ON "licenses" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "referral_clicks_reseller_id_product_id_index" ON "referral_clicks" USING btree ("reseller_id","product_id");--> statement-breakpoint
CREATE INDEX "refund_requests_seller_id_status_index" ON "refund_requests" USING btree ("seller_id","status");--> statement-breakpoint
CREATE INDEX "refund_requests_status_created_at_index" ON "refund_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "refund_requests_buyer_id_index" ON "refund_requests" USING btree ("buyer_id");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_items_seller_id_index" ON "order_items" USING btree ("seller_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_commission_rate_range" CHECK ("products"."commission_rate" between 0 and 0.5);--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_refund_status" CHECK ("order_items"."refund_status" in ('none', 'refunded'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_status" CHECK ("orders"."payment_status" in ('pending', 'processing', 'failed', 'mock_confirmed', 'partially_refunded', 'refunded'));--> statement-breakpoint
UPDATE "order_items" SET "seller_id" = "products"."seller_id", "category" = "products"."category" FROM "products" WHERE "products"."id" = "order_items"."product_id";
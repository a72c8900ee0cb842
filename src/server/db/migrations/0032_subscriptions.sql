-- Subscriptions (decision 0027): what each recurring order item started, and one claim row per renewed period.
CREATE TABLE "subscription_renewals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"period_index" integer NOT NULL,
	"order_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_renewals_orderId_unique" UNIQUE("order_id"),
	CONSTRAINT "subscription_renewals_subscriptionId_periodIndex_unique" UNIQUE("subscription_id","period_index"),
	CONSTRAINT "subscription_renewals_period" CHECK ("subscription_renewals"."period_index" >= 1)
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"product_id" uuid,
	"order_item_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"interval" text NOT NULL,
	"unit_price" numeric(14, 4) NOT NULL,
	"quantity" integer NOT NULL,
	"anchor" timestamp with time zone NOT NULL,
	"periods_paid" integer DEFAULT 1 NOT NULL,
	"paid_through" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_orderItemId_unique" UNIQUE("order_item_id"),
	CONSTRAINT "subscriptions_interval" CHECK ("subscriptions"."interval" in ('month', 'year')),
	CONSTRAINT "subscriptions_quantity" CHECK ("subscriptions"."quantity" between 1 and 99),
	CONSTRAINT "subscriptions_periods_paid" CHECK ("subscriptions"."periods_paid" >= 1),
	CONSTRAINT "subscriptions_end_reason" CHECK ("subscriptions"."end_reason" is null or "subscriptions"."end_reason" in ('cancelled', 'unpaid')),
	CONSTRAINT "subscriptions_ended" CHECK (("subscriptions"."ended_at" is null) = ("subscriptions"."end_reason" is null))
);
--> statement-breakpoint
ALTER TABLE "subscription_renewals" ADD CONSTRAINT "subscription_renewals_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_renewals" ADD CONSTRAINT "subscription_renewals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_user_id_created_at_index" ON "subscriptions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_due_index" ON "subscriptions" USING btree ("paid_through") WHERE "subscriptions"."ended_at" is null;
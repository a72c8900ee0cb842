CREATE TABLE "usage_periods" (
	"subscription_id" uuid NOT NULL,
	"period_index" integer NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"alerts_sent" integer DEFAULT 0 NOT NULL,
	"rated_at" timestamp with time zone,
	"order_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_periods_subscription_id_period_index_pk" PRIMARY KEY("subscription_id","period_index"),
	CONSTRAINT "usage_periods_quantity" CHECK ("usage_periods"."quantity" >= 0),
	CONSTRAINT "usage_periods_alerts" CHECK ("usage_periods"."alerts_sent" between 0 and 3)
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"seller_id" text NOT NULL,
	"period_index" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"used_at" timestamp with time zone NOT NULL,
	"idempotency_key" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_records_idempotency" UNIQUE("seller_id","idempotency_key"),
	CONSTRAINT "usage_records_quantity" CHECK ("usage_records"."quantity" <> 0),
	CONSTRAINT "usage_records_correction" CHECK ("usage_records"."quantity" > 0 or "usage_records"."reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "product_plans" ADD COLUMN "meter_unit" text;--> statement-breakpoint
ALTER TABLE "product_plans" ADD COLUMN "usage_tiers" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "meter_unit" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "usage_tiers" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "spending_cap" numeric(14, 4);--> statement-breakpoint
ALTER TABLE "usage_periods" ADD CONSTRAINT "usage_periods_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_periods" ADD CONSTRAINT "usage_periods_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_records_subscription_id_period_index_index" ON "usage_records" USING btree ("subscription_id","period_index");--> statement-breakpoint
ALTER TABLE "product_plans" ADD CONSTRAINT "product_plans_meter" CHECK (("product_plans"."meter_unit" is null) = ("product_plans"."usage_tiers" is null));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_meter" CHECK (("subscriptions"."meter_unit" is null) = ("subscriptions"."usage_tiers" is null));
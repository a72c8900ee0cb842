CREATE TABLE "subscription_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"priced_at" timestamp with time zone NOT NULL,
	"periods_paid" integer NOT NULL,
	"from_plan_id" uuid,
	"from_interval" text NOT NULL,
	"from_unit_price" numeric(14, 4) NOT NULL,
	"from_quantity" integer NOT NULL,
	"to_plan_id" uuid,
	"to_interval" text NOT NULL,
	"to_unit_price" numeric(14, 4) NOT NULL,
	"to_quantity" integer NOT NULL,
	"credit_cents" integer NOT NULL,
	"charge_cents" integer NOT NULL,
	"due_cents" integer NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_changes_orderId_unique" UNIQUE("order_id"),
	CONSTRAINT "subscription_changes_kind" CHECK ("subscription_changes"."kind" in ('now', 'restart', 'at_period_end')),
	CONSTRAINT "subscription_changes_status" CHECK ("subscription_changes"."status" in ('awaiting_payment', 'scheduled', 'applied', 'cancelled')),
	CONSTRAINT "subscription_changes_amounts" CHECK (0 <= "subscription_changes"."credit_cents" and 0 <= "subscription_changes"."due_cents" and "subscription_changes"."due_cents" <= "subscription_changes"."charge_cents")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "anchor_period" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_from_plan_id_product_plans_id_fk" FOREIGN KEY ("from_plan_id") REFERENCES "public"."product_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_to_plan_id_product_plans_id_fk" FOREIGN KEY ("to_plan_id") REFERENCES "public"."product_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_changes_one_waiting" ON "subscription_changes" USING btree ("subscription_id") WHERE "subscription_changes"."status" in ('awaiting_payment', 'scheduled');
-- Plans of recurring products, free trials and announced price changes on subscriptions (decision 0027).
CREATE TABLE "product_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"name" text NOT NULL,
	"interval" text NOT NULL,
	"price" numeric(14, 4) NOT NULL,
	"per_seat" boolean DEFAULT false NOT NULL,
	"min_seats" integer DEFAULT 1 NOT NULL,
	"max_seats" integer DEFAULT 99 NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_plans_interval" CHECK ("product_plans"."interval" in ('month', 'year')),
	CONSTRAINT "product_plans_price" CHECK ("product_plans"."price" > 0),
	CONSTRAINT "product_plans_seats" CHECK (1 <= "product_plans"."min_seats" and "product_plans"."min_seats" <= "product_plans"."max_seats" and "product_plans"."max_seats" <= 99),
	CONSTRAINT "product_plans_trial" CHECK ("product_plans"."trial_days" between 0 and 90)
);
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_pricing_unit";--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_pricing_unit";--> statement-breakpoint
ALTER TABLE "subscription_renewals" DROP CONSTRAINT "subscription_renewals_period";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_periods_paid";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "recurring_price" numeric(14, 4);--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_unit_price" numeric(14, 4);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "price_change_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_plans" ADD CONSTRAINT "product_plans_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_plans_product_id_position_index" ON "product_plans" USING btree ("product_id","position");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_product_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."product_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_trial" ON "subscriptions" USING btree ("user_id","product_id") WHERE "subscriptions"."trial_ends_at" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_plan_id_index" ON "subscriptions" USING btree ("plan_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pricing_unit" CHECK ("products"."pricing_unit" is null or "products"."pricing_unit" in ('one_time', 'month', 'year', 'user_month', 'user_year', 'api_call', 'minute', 'unit'));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_pricing_unit" CHECK ("order_items"."pricing_unit" is null or "order_items"."pricing_unit" in ('one_time', 'month', 'year', 'user_month', 'user_year', 'api_call', 'minute', 'unit'));--> statement-breakpoint
ALTER TABLE "subscription_renewals" ADD CONSTRAINT "subscription_renewals_period" CHECK ("subscription_renewals"."period_index" >= 0);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_price_change" CHECK (("subscriptions"."next_unit_price" is null) = ("subscriptions"."price_change_at" is null));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_periods_paid" CHECK ("subscriptions"."periods_paid" >= 0);--> statement-breakpoint
-- Every product priced per month, per year or per user per month gets its first plan from its price, and
-- the subscriptions already sold are put on it (decision 0027).
INSERT INTO "product_plans" ("product_id", "name", "interval", "price", "per_seat", "min_seats", "max_seats", "position")
SELECT "id",
  CASE "pricing_unit" WHEN 'year' THEN 'Yearly' WHEN 'user_month' THEN 'Per seat' ELSE 'Monthly' END,
  CASE "pricing_unit" WHEN 'year' THEN 'year' ELSE 'month' END,
  "price", "pricing_unit" = 'user_month', 1, 99, 0
FROM "products" WHERE "pricing_unit" IN ('month', 'year', 'user_month') AND "price" > 0;--> statement-breakpoint
UPDATE "subscriptions" SET "plan_id" = "product_plans"."id" FROM "product_plans"
WHERE "product_plans"."product_id" = "subscriptions"."product_id" AND "product_plans"."interval" = "subscriptions"."interval";
--> statement-breakpoint
-- A product's plans are part of its public page: they clear the catalogue cache as its features do (decision 0018).
CREATE TRIGGER "product_plans_catalogue_inserted" AFTER INSERT ON "product_plans" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();--> statement-breakpoint
CREATE TRIGGER "product_plans_catalogue_updated" AFTER UPDATE ON "product_plans" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();--> statement-breakpoint
CREATE TRIGGER "product_plans_catalogue_deleted" AFTER DELETE ON "product_plans" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();

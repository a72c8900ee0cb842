ALTER TABLE "order_items" ADD COLUMN "shipping_state" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "delivered_by" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
CREATE INDEX "order_items_shipping_state_shipped_at_index" ON "order_items" USING btree ("shipping_state","shipped_at");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_shipping_state" CHECK ("order_items"."shipping_state" is null or "order_items"."shipping_state" in ('awaiting_shipment', 'shipped', 'delivered'));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_shipped" CHECK ("order_items"."shipping_state" is distinct from 'shipped' or ("order_items"."shipped_at" is not null and "order_items"."tracking_number" is not null));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_delivered" CHECK ("order_items"."shipping_state" is distinct from 'delivered' or ("order_items"."delivered_at" is not null and "order_items"."delivered_by" in ('buyer', 'automatic')));
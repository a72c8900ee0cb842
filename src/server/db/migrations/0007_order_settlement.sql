ALTER TABLE "orders" ADD COLUMN "referral" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "confirmation_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_payment_status_updated_at_index" ON "orders" USING btree ("payment_status","updated_at");
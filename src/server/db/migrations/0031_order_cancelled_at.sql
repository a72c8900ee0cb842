-- A buyer may cancel an order that awaits payment: the order fails, and this says it was the buyer
-- who cancelled it, so it reads "Cancelled" and is not paid again.
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;
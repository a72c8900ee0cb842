-- A buyer may cancel an order that awaits payment (issue 30, item 7): the order fails, and this says it was
-- the buyer who cancelled it, so it reads "Cancelled" and is not paid again.
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;
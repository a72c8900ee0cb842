ALTER TABLE "payouts" ADD COLUMN "bank_sealed" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "stripe_account_id" text;--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "details_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Payouts still in transit pay the details on file now, the best record of what their batch approved.
UPDATE "payouts" SET "bank_sealed" = "payout_accounts"."bank_sealed" FROM "payout_accounts" WHERE "payout_accounts"."user_id" = "payouts"."user_id" AND "payouts"."status" = 'processing' AND "payouts"."method" = 'bank' AND "payout_accounts"."method" = 'bank';--> statement-breakpoint
UPDATE "payouts" SET "stripe_account_id" = "payout_accounts"."stripe_account_id" FROM "payout_accounts" WHERE "payout_accounts"."user_id" = "payouts"."user_id" AND "payouts"."status" = 'processing' AND "payouts"."method" = 'stripe' AND "payout_accounts"."method" = 'stripe';--> statement-breakpoint
-- Details on file were last changed no later than their row was last written.
UPDATE "payout_accounts" SET "details_changed_at" = "updated_at";

CREATE TABLE "payout_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"stripe_account_key" text,
	"stripe_account_id" text,
	"stripe_status" text,
	"stripe_requirements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stripe_status_at" timestamp with time zone,
	"bank_sealed" text,
	"bank_masked" text,
	"country" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_accounts_stripeAccountId_unique" UNIQUE("stripe_account_id"),
	CONSTRAINT "payout_accounts_method" CHECK ("payout_accounts"."method" in ('stripe', 'bank')),
	CONSTRAINT "payout_accounts_stripe_status" CHECK ("payout_accounts"."stripe_status" is null or "payout_accounts"."stripe_status" in ('onboarding', 'enabled', 'restricted')),
	CONSTRAINT "payout_accounts_shape" CHECK (("payout_accounts"."method" = 'stripe' and "payout_accounts"."stripe_account_key" is not null and "payout_accounts"."stripe_status" is not null and "payout_accounts"."bank_sealed" is null and "payout_accounts"."country" is not null)
        or ("payout_accounts"."method" = 'bank' and "payout_accounts"."bank_sealed" is not null and "payout_accounts"."bank_masked" is not null and "payout_accounts"."country" is not null and "payout_accounts"."stripe_account_id" is null))
);
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "payment_customers" (
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"customer_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_user_id_provider_pk" PRIMARY KEY("user_id","provider")
);
--> statement-breakpoint
CREATE TABLE "payment_method_setups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"method_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_method_setups_provider_providerRef_unique" UNIQUE("provider","provider_ref"),
	CONSTRAINT "payment_method_setups_state" CHECK ("payment_method_setups"."state" in ('pending', 'saved', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text,
	"customer_ref" text,
	"method_ref" text,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"fingerprint" text,
	"email" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "payment_methods_provider_methodRef_unique" UNIQUE("provider","method_ref"),
	CONSTRAINT "payment_methods_kind" CHECK ("payment_methods"."kind" in ('card', 'paypal', 'bank_transfer')),
	CONSTRAINT "payment_methods_reference" CHECK (("payment_methods"."kind" = 'bank_transfer') = ("payment_methods"."provider" is null and "payment_methods"."method_ref" is null))
);
--> statement-breakpoint
CREATE TABLE "test_setup_sessions" (
	"ref" text PRIMARY KEY NOT NULL,
	"setup_id" text NOT NULL,
	"kind" text NOT NULL,
	"customer_ref" text NOT NULL,
	"return_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"card" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_setup_sessions_setupId_unique" UNIQUE("setup_id"),
	CONSTRAINT "test_setup_sessions_state" CHECK ("test_setup_sessions"."state" in ('pending', 'saved', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "saved_method_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "saved_method_id" uuid;--> statement-breakpoint
ALTER TABLE "product_plans" ADD COLUMN "trial_needs_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_renewals" ADD COLUMN "charges_tried" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_renewals" ADD COLUMN "pre_debit_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_fingerprint" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "payment_method_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_setups" ADD CONSTRAINT "payment_method_setups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_setups" ADD CONSTRAINT "payment_method_setups_method_id_payment_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_method_setups_user_id_created_at_index" ON "payment_method_setups" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_one_default" ON "payment_methods" USING btree ("user_id") WHERE "payment_methods"."is_default" and "payment_methods"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "payment_methods_user_id_created_at_index" ON "payment_methods" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_saved_method_id_payment_methods_id_fk" FOREIGN KEY ("saved_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_saved_method_id_payment_methods_id_fk" FOREIGN KEY ("saved_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_trial_per_card" ON "subscriptions" USING btree ("product_id","trial_fingerprint") WHERE "subscriptions"."trial_fingerprint" is not null;